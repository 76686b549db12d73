import CDStoreJSON
import CDStoreModel
import Foundation

/// Where a store keeps the files of `Binary` attributes with external storage
/// (`allowsExternalBinaryDataStorage`): `.<store name without extension>_SUPPORT/_EXTERNAL_DATA/` beside the
/// store file (coredata-format.md §1.1).
package struct ExternalDataLocation: Sendable, Equatable {
    /// The `_EXTERNAL_DATA` directory.
    package var directory: URL
    /// Where values whose file is missing are counted; when set, such a value reads as NULL instead of failing
    /// (stores are routinely copied without their support folder, and one lost file must not hide the rest).
    package var missingFiles: MissingExternalData?

    package static func == (lhs: ExternalDataLocation, rhs: ExternalDataLocation) -> Bool {
        lhs.directory == rhs.directory
    }

    /// The `_EXTERNAL_DATA` directory given directly.
    package init(externalDataDirectory: URL) {
        self.directory = externalDataDirectory
    }

    /// The location Core Data uses for the store file `storeFile`:
    /// `/path/X.sqlite` → `/path/.X_SUPPORT/_EXTERNAL_DATA`.
    package init(storeFile: URL) {
        self.directory = Self.supportDirectory(forStoreFile: storeFile).appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The support directory of a store file: `/path/X.sqlite` → `/path/.X_SUPPORT`.
    package static func supportDirectory(forStoreFile storeFile: URL) -> URL {
        let name = storeFile.deletingPathExtension().lastPathComponent
        return storeFile.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT")
    }

    /// Whether the external file `name` exists.
    package func containsFile(_ name: String) -> Bool {
        isPlainFileName(name) && FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }

    private func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// The contents of the external file `name`. Throws when the name is not a plain file name or the file
    /// is missing or unreadable (Core Data reports a missing file as error 134185).
    package func contents(ofFile name: String) throws -> Data {
        guard isPlainFileName(name) else {
            throw StoreError(.cannotOpen, "external data reference '\(name)' is not a file name")
        }
        let file = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw StoreError(.cannotOpen, "external data file '\(name)' is missing from \(directory.path) "
                             + "(Core Data error 134185)").coreData(134185)
        }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw StoreError(.cannotOpen, "external data file '\(file.path)' cannot be read: \(error.localizedDescription)")
        }
    }
}

/// The column values of `Binary` attributes with `allowsExternalBinaryDataStorage` (coredata-format.md §1.5):
/// `0x01 ‖ bytes` when the bytes are kept in the row, `0x02 ‖ UTF-8 file name ‖ 0x00` when they live in
/// `_EXTERNAL_DATA/<file name>`.
package enum ExternalBinaryData {
    /// Marker of a value kept in the row.
    package static let inlineMarker: UInt8 = 0x01
    /// Marker of a value kept in an external file.
    package static let externalMarker: UInt8 = 0x02

    /// What a column value says.
    package enum Reference: Sendable, Equatable {
        /// The bytes are in the row (after the `0x01` marker).
        case inline(Data)
        /// The bytes are in the external file of this name.
        case external(fileName: String)
        /// Neither form: the column holds other bytes (kept as they are).
        case raw(Data)
    }

    /// Parses a column value.
    package static func reference(_ stored: Data) -> Reference {
        guard let marker = stored.first else { return .raw(stored) }
        switch marker {
        case inlineMarker:
            return .inline(Data(stored.dropFirst()))
        case externalMarker:
            let rest = stored.dropFirst()
            guard rest.last == 0, rest.count > 1 else { return .raw(stored) }
            let nameBytes = rest.dropLast()
            guard !nameBytes.contains(0), let name = String(bytes: nameBytes, encoding: .utf8) else { return .raw(stored) }
            return .external(fileName: name)
        default:
            return .raw(stored)
        }
    }

    /// The bytes a column value stands for. An external reference is read from `location`; without a
    /// location, it cannot be resolved and throws.
    package static func contents(_ stored: Data, location: ExternalDataLocation?) throws -> Data {
        switch reference(stored) {
        case .inline(let bytes), .raw(let bytes):
            return bytes
        case .external(let name):
            guard let location else {
                throw StoreError(.cannotOpen, "value is kept in external data file '\(name)', but the store's "
                                 + "_EXTERNAL_DATA directory is not known")
            }
            return try location.contents(ofFile: name)
        }
    }

    /// The column value for `bytes`: always kept in the row (`0x01 ‖ bytes`), which Core Data reads whatever
    /// its size.
    package static func storedValue(_ bytes: Data) -> Data {
        var out = Data([inlineMarker])
        out.append(bytes)
        return out
    }
}
