import CDStoreJSON
import CDStoreModel
import CDStorePredicate

/// What to fetch, count or delete: an entity, an optional predicate, an order and a window.
///
/// Core Data equivalent: `NSFetchRequest`.
package struct ObjectFetchRequest: Sendable {
    /// The entity whose objects are wanted.
    package var entity: String
    /// Only objects matching it (nil = all).
    package var predicate: PredicateNode?
    /// Order of the results, most significant first. Ties keep primary-key order.
    package var sort: [SortDescriptor]
    /// At most this many objects (`fetchLimit`).
    package var limit: Int?
    /// Skip this many objects first (`fetchOffset`).
    package var offset: Int?
    /// Include objects of sub-entities (`includesSubentities`, true by default).
    package var includesSubentities: Bool
    /// How relationships appear in the fetched objects.
    package var relationships: RelationshipOutput
    /// Relationship key paths whose objects are nested in the results instead of named by ID
    /// (`["employees", "employees.badge"]`), fetched with one query per relationship and batch, never per object.
    ///
    /// Core Data equivalent: `relationshipKeyPathsForPrefetching`.
    package var includes: [String]
    /// Only the objects with these primary keys (nil = no such restriction).
    package var primaryKeys: [Int64]?
    /// Only the objects that come after the object with this primary key in the request's order (keyset
    /// paging): the next page starts after the last object of this one. Unlike ``offset`` it costs the same on
    /// the thousandth page as on the first, and it needs no value from the caller but the key.
    package var afterPrimaryKey: Int64?

    /// Creates a request for all objects of `entity`.
    package init(entity: String, predicate: PredicateNode? = nil, sort: [SortDescriptor] = [], limit: Int? = nil,
                offset: Int? = nil, includesSubentities: Bool = true, relationships: RelationshipOutput = .objectIDs,
                includes: [String] = [], primaryKeys: [Int64]? = nil) {
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.includesSubentities = includesSubentities
        self.relationships = relationships
        self.includes = includes
        self.primaryKeys = primaryKeys
    }
}

/// How fetched objects show their relationships.
package enum RelationshipOutput: Sendable, Equatable {
    /// Not at all: attributes only.
    case none
    /// A to-one as the related object's ID (or null), a to-many as an array of IDs in relationship order.
    case objectIDs
    /// A to-one as its ID, a to-many as the number of related objects.
    case counts
}

/// One sort key.
///
/// Core Data equivalent: `NSSortDescriptor` (with `caseInsensitiveCompare:` when ``caseInsensitive``).
package struct SortDescriptor: Sendable, Equatable {
    /// The key path to sort by.
    package var keyPath: String
    /// Ascending (true) or descending.
    package var ascending: Bool
    /// Compare strings ignoring case (Unicode-aware).
    package var caseInsensitive: Bool

    /// Creates a sort descriptor.
    package init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }

    /// Reads the command-line form: `name`, `-name` (descending), with an optional `:ci` suffix for a
    /// case-insensitive order (`-name:ci`).
    package init(parsing text: String) {
        var body = Substring(text)
        let descending = body.hasPrefix("-")
        if descending { body = body.dropFirst() }
        let caseInsensitive = body.lowercased().hasSuffix(":ci")
        if caseInsensitive { body = body.dropLast(3) }
        self.init(String(body), ascending: !descending, caseInsensitive: caseInsensitive)
    }
}

/// An object read from the store: its identity and its attribute values.
package struct FetchedObject: Sendable, Equatable {
    /// Its primary key (`Z_PK`).
    package var primaryKey: Int64
    /// Its URI (`x-coredata://…`), set by the store that fetched it.
    package var objectID: ObjectID?
    /// The name of its entity (a sub-entity of the requested one, possibly).
    package var entity: String
    /// Attribute values, in the model's order (inherited attributes first), then relationship values as the
    /// request asked for them.
    package var values: [(String, ObjectValue)]

    package init(primaryKey: Int64, entity: String, values: [(String, ObjectValue)], objectID: ObjectID? = nil) {
        self.primaryKey = primaryKey
        self.objectID = objectID
        self.entity = entity
        self.values = values
    }

    package static func == (lhs: FetchedObject, rhs: FetchedObject) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entity == rhs.entity && lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// The value of the attribute called `name`, or nil when the object has no such attribute.
    package subscript(name: String) -> ObjectValue? {
        values.first { $0.0 == name }?.1
    }
}
