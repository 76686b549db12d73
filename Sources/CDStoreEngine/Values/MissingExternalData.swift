import CDStoreJSON
import Foundation

/// The values a read could not resolve because their external-data file is missing, counted per attribute.
///
/// Stores are copied off devices and out of backups without their `.<store>_SUPPORT/_EXTERNAL_DATA` folder
/// all the time. Core Data fails such a fault (error 134185); cdstore reads the value as NULL instead, so one
/// lost file never stops a whole export, and reports the count once the command is done (``warning``).
/// A ``Store`` whose ``Store/readsMissingExternalDataAsNull`` is false fails instead (`--strict`).
package final class MissingExternalData: @unchecked Sendable {
    /// One attribute whose values were missing.
    package struct Count: Sendable, Equatable {
        /// The entity of the objects read (a sub-entity for objects of sub-entities).
        package var entity: String
        /// The attribute.
        package var attribute: String
        /// How many values were missing.
        package var values: Int
    }

    /// The `_EXTERNAL_DATA` folder the files were looked for in.
    package let directory: URL
    private let lock = NSLock()
    private var counts: [String: Count] = [:]

    /// An empty tally for files looked for in `directory`.
    package init(directory: URL) {
        self.directory = directory
    }

    /// Counts one missing value of `attribute` of an object of `entity`.
    package func record(entity: String?, attribute: String) {
        let key = (entity ?? "") + "." + attribute
        lock.lock()
        defer { lock.unlock() }
        counts[key, default: Count(entity: entity ?? "", attribute: attribute, values: 0)].values += 1
    }

    /// The attributes with missing values, by entity then attribute name.
    package var attributes: [Count] {
        lock.lock()
        defer { lock.unlock() }
        return counts.values.sorted { ($0.entity, $0.attribute) < ($1.entity, $1.attribute) }
    }

    /// How many values were missing in all.
    package var total: Int { attributes.reduce(0) { $0 + $1.values } }

    /// One line for standard error, or nil when nothing was missing: e.g. `3 external data values are missing
    /// (Photo.image: 2, Note.attachment: 1) from /x/.S_SUPPORT/_EXTERNAL_DATA; they were read as null`.
    package var warning: String? {
        let attributes = self.attributes
        guard !attributes.isEmpty else { return nil }
        let total = attributes.reduce(0) { $0 + $1.values }
        let list = attributes.map { ($0.entity.isEmpty ? "" : $0.entity + ".") + "\($0.attribute): \($0.values)" }
        return "\(total) external data \(total == 1 ? "value is" : "values are") missing (\(list.joined(separator: ", "))) "
            + "from \(directory.path); \(total == 1 ? "it was" : "they were") read as null"
    }

    /// Forgets every count (the REPL reports per command).
    package func reset() {
        lock.lock()
        defer { lock.unlock() }
        counts = [:]
    }
}
