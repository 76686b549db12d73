import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

/// What a store diff compares, and how strictly.
package struct StoreDiffOptions: Sendable {
    /// Only these entities and their sub-entities (names of either store's model); empty compares every entity.
    package var entities: [String]
    /// Only objects that match it, in both stores.
    package var predicate: PredicateNode?
    /// Key attributes by entity name (`["Employee": ["employeeNumber"]]`), for the entity and its sub-entities.
    /// They take precedence over the model's uniqueness constraints and identity attributes.
    package var keys: [String: [String]]
    /// Properties left out of the comparison: `name` (of every entity) or `Entity.name` (of that entity and its
    /// sub-entities).
    package var ignored: [String]
    /// Double, Float and Decimal values this close are equal (0: exactly equal; NaN equals NaN).
    package var tolerance: Double

    package init(entities: [String] = [], predicate: PredicateNode? = nil, keys: [String: [String]] = [:],
                ignored: [String] = [], tolerance: Double = 0) {
        self.entities = entities
        self.predicate = predicate
        self.keys = keys
        self.ignored = ignored
        self.tolerance = tolerance
    }
}

/// How the objects of an entity are matched across the two stores.
public enum DiffKey: Sendable, Equatable {
    /// By the values of the given attributes (``StoreDiffOptions/keys``).
    case given([String])
    /// By the attributes of the entity's first uniqueness constraint made of attributes only.
    case uniquenessConstraint([String])
    /// By the attributes the entity's user info names: `identityAttribute` or `identityAttributes` (Groot, Sync),
    /// `relatedByAttribute` (MagicalRecord).
    case identityAttribute([String])
    /// By primary key (`Z_PK`): objects are only the same when they have the same key in both stores.
    case primaryKey

    /// The key's attribute names (`["Z_PK"]` for ``primaryKey``).
    public var attributes: [String] {
        switch self {
        case .given(let names), .uniquenessConstraint(let names), .identityAttribute(let names): names
        case .primaryKey: ["Z_PK"]
        }
    }
}

/// One entity's comparison: how its objects are matched, and once the diff has run, how many differ.
public struct EntityComparison: Sendable, Equatable {
    /// The entity's name in store B's model (in A's for an entity B's model lacks).
    public var entity: String
    /// How objects are matched.
    public var key: DiffKey
    /// Objects only store A holds (removed).
    public var onlyInA = 0
    /// Objects only store B holds (added).
    public var onlyInB = 0
    /// Objects in both whose compared values differ.
    public var changed = 0
    /// Objects in both with equal values.
    public var same = 0
    /// Objects whose key equals another object's in the same store; such objects are paired in `Z_PK` order.
    public var sharedKeys = 0

    /// Whether the stores differ in this entity.
    public var differs: Bool { onlyInA + onlyInB + changed > 0 }
}

/// One object that differs between the two stores.
/// One object that differs between two stores (``CDStore/StoreComparison``).
public struct ObjectDifference: Sendable {
    /// What differs.
    public enum Change: String, Sendable {
        /// Only in store B.
        case added
        /// Only in store A.
        case removed
        /// In both, with different values.
        case changed
    }

    /// The entity (its name in B's model, unless only A's model has it).
    public var entity: String
    /// The values the object is matched by, under the key's attribute names.
    public var key: [(String, ObjectValue)]
    /// Added, removed or changed.
    public var change: Change
    /// For ``Change/changed``: each property that differs, with its value in A and in B. Relationships show the
    /// keys of the related objects (a dictionary, with `_entity` for an object of a sub-entity of the destination).
    public var fields: [(name: String, a: ObjectValue, b: ObjectValue)]
    /// For ``Change/added`` and ``Change/removed``: the object's compared values in the store that holds it.
    public var values: [(String, ObjectValue)]
}

/// An object-level comparison of two stores: objects are matched by key, not by row, so that renumbered primary
/// keys, another insertion order or a migration do not show as differences.
///
/// ```swift
/// let diff = try StoreDiff(from: before, to: after, options: StoreDiffOptions(ignored: ["updatedAt"]))
/// let summary = try diff.run { difference in print(difference.entity, difference.change) }
/// ```
///
/// Per entity, objects are matched by ``StoreDiffOptions/keys``, else by the model's uniqueness constraints,
/// else by the identity attribute in the entity's user info, else by `Z_PK` (``DiffKey``). Relationships compare
/// by the keys of their related objects. When the stores were saved with different versions of one model,
/// entities and properties are matched as the inferred mapping matches them (``ModelDiff``, renaming
/// identifiers included); properties only one version has are not compared, but listed in ``modelChanges``.
///
/// Both stores are read in key order through one SQLite statement per entity and side, and merged as they are
/// read, so memory holds a batch of rows and a bounded cache of related objects' keys, whatever the size.
package struct StoreDiff {
    /// Store A: the "before" side.
    package let a: Store
    /// Store B: the "after" side.
    package let b: Store
    package let options: StoreDiffOptions
    /// The changes from A's model to B's (empty when both have the same model), of the entities compared.
    package let modelChanges: [ModelChange]
    /// The entities to compare, with how each is matched (counts zero until ``run(_:)``).
    package var comparisons: [EntityComparison] { selected.map { plans[$0].comparison } }

    let plans: [EntityPlan]
    /// Indices in ``plans`` of the entities compared.
    let selected: [Int]

    /// Plans the comparison: pairs entities and properties, checks the options' names and chooses each key.
    package init(from a: Store, to b: Store, options: StoreDiffOptions = .init()) throws {
        self.a = a
        self.b = b
        self.options = options
        let planner = DiffPlanner(a: a, b: b, options: options)
        let plans = try planner.plans()
        let selected = try planner.selected(plans)
        self.plans = plans
        self.selected = selected
        // With --entity, only the changes to the entities compared.
        let names = Set(selected.flatMap { [plans[$0].a?.entity.name, plans[$0].b?.entity.name].compactMap { $0 } })
        modelChanges = ModelDiff.changes(from: a.model, to: b.model).filter { options.entities.isEmpty || names.contains($0.entity) }
    }

    /// Compares the stores, calls `each` with every difference (entity by entity, in key order) and returns the
    /// counts per entity.
    @discardableResult
    package func run(_ each: (ObjectDifference) throws -> Void) throws -> [EntityComparison] {
        try withoutActuallyEscaping(each) { each in
            try reading { dbA, dbB in
                let identitiesA = DiffIdentities(a, plans: plans, side: \.a)
                let identitiesB = DiffIdentities(b, plans: plans, side: \.b)
                let merge = DiffMerge(diff: self, each: each)
                return try selected.map { index in
                    let plan = plans[index]
                    let cursorA = try plan.a.map {
                        try DiffCursor(store: a, side: $0, forms: plan.relationshipForms, predicate: options.predicate,
                                       identities: identitiesA, db: dbA)
                    }
                    let cursorB = try plan.b.map {
                        try DiffCursor(store: b, side: $0, forms: plan.relationshipForms, predicate: options.predicate,
                                       identities: identitiesB, db: dbB)
                    }
                    return try merge.compare(plan, cursorA, cursorB)
                }
            }
        }
    }

    /// Runs `body` inside a read of each store (one read when A and B are the same store: GRDB reads do not nest
    /// on one connection).
    private func reading<T>(_ body: (Database, Database) throws -> T) throws -> T {
        if a === b { return try a.read { db in try body(db, db) } }
        return try a.read { dbA in try b.read { dbB in try body(dbA, dbB) } }
    }
}
