import CDStoreComparison
import CDStoreEngine

/// How one entity's objects were matched across two stores, and how many differ (``CDStore/StoreComparison``).
public typealias EntityComparison = CDStoreComparison.EntityComparison
/// How the objects of an entity are matched across two stores.
public typealias DiffKey = CDStoreComparison.DiffKey
/// One object that differs between two stores.
public typealias ObjectDifference = CDStoreComparison.ObjectDifference

extension CDStore {
    /// An object-level comparison of two stores, planned and ready to run (``compare(with:entities:matching:keys:ignoring:tolerance:)``).
    public struct StoreComparison {
        let diff: StoreDiff

        /// The entities compared, with how each is matched (counts zero until ``run(_:)``).
        public var plannedEntities: [EntityComparison] { diff.comparisons }
        /// The changes from the first store's model to the other's, of the entities compared (empty when both have
        /// the same model).
        public var modelChanges: [ModelChange] { diff.modelChanges }

        /// Compares the stores, calls `each` with every object that differs (entity by entity, in key order), and
        /// returns the counts per entity.
        @discardableResult
        public func run(_ each: (ObjectDifference) throws -> Void = { _ in }) throws -> [EntityComparison] {
            try CDStoreError.wrapping { try diff.run(each) }
        }
    }

    /// Plans a comparison of this store (A, "before") with `other` (B, "after"): objects are matched by key, not by
    /// row, so that renumbered primary keys, another insertion order or a migration do not show as differences.
    ///
    /// ```swift
    /// let comparison = try before.compare(with: after, ignoring: ["updatedAt"])
    /// let counts = try comparison.run { difference in print(difference.entity, difference.change) }
    /// ```
    ///
    /// Relationships compare by the keys of their related objects. When the stores were saved with different
    /// versions of one model, entities and properties are matched as the inferred mapping matches them; properties
    /// only one version has are not compared, but listed in ``StoreComparison/modelChanges``. Both stores are read
    /// in key order and merged as they are read, so memory stays bounded whatever their size.
    ///
    /// - Parameters:
    ///   - other: The store to compare this one with (the "after" side).
    ///   - entities: Only these entities (all when empty).
    ///   - criteria: Only the objects these criteria filter, in both stores.
    ///   - keys: The attributes that match an entity's objects across the stores, by entity name; by default a
    ///     uniqueness constraint, else the identity attribute the model's user info names, else `Z_PK`.
    ///   - ignored: Properties left out: `name` of any entity or `Entity.name`.
    ///   - tolerance: Double, Float and Decimal values this close are equal.
    public func compare(with other: CDStore, entities: [String] = [], matching criteria: Criteria? = nil,
                        keys: [String: [String]] = [:], ignoring ignored: [String] = [],
                        tolerance: Double = 0) throws -> StoreComparison {
        let settings = StoreDiffOptions(entities: entities, predicate: criteria?.predicate, keys: keys, ignored: ignored,
                                        tolerance: tolerance)
        return StoreComparison(diff: try CDStoreError.wrapping { try StoreDiff(from: store, to: other.store, options: settings) })
    }
}
