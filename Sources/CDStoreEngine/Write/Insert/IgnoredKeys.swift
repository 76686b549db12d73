import CDStoreJSON
import Foundation

/// What an insert does with an input key that names no property of the entity.
///
/// Seed files apps ship are API responses kept as they came: twenty keys the model has no property for is normal
/// there, and Groot and MagicalRecord ignore them. Without a mapping the input is meant to use property names,
/// so an unknown key is most likely a typo and stays an error.
public enum UnknownKeyPolicy: Sendable, Equatable {
    /// Ignored (and counted) when a JSON mapping is in use, an error otherwise. The default.
    case ignoredUnderMapping
    /// Always ignored and counted (`--ignore-unknown`).
    case ignored
    /// Always an error, a mapping or not (`--strict`).
    case refused
}

/// The input keys an insert ignored for one entity.
public struct IgnoredKeys: Sendable, Equatable, CustomStringConvertible {
    /// The entity whose records held them.
    public var entity: String
    /// The keys, sorted.
    public var keys: [String]
    /// How many of the entity's records held at least one of them.
    public var records: Int

    /// `ignored 3 keys the model lacks in 30 Venue records: categories, hereNow, id`.
    public var description: String {
        "ignored \(keys.count) \(keys.count == 1 ? "key" : "keys") the model lacks in \(records) \(entity) "
            + "\(records == 1 ? "record" : "records"): " + keys.joined(separator: ", ")
    }
}

/// Counts ignored keys per entity while an insert runs; one per command.
final class IgnoredKeyTally: @unchecked Sendable {
    private var keys: [String: Set<String>] = [:]
    private var records: [String: Int] = [:]

    /// Records that `record`'s `keys` (all unknown to `entity`) were ignored.
    func ignore(_ ignored: some Collection<String>, entity: String) {
        guard !ignored.isEmpty else { return }
        keys[entity, default: []].formUnion(ignored)
        records[entity, default: 0] += 1
    }

    /// Per entity, sorted by entity name.
    var summary: [IgnoredKeys] {
        keys.keys.sorted().map { IgnoredKeys(entity: $0, keys: keys[$0]!.sorted(), records: records[$0] ?? 0) }
    }
}
