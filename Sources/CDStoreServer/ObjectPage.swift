import CDStore

/// JSON text of a value, as the library writes it.
func jsonText(_ value: ObjectValue) -> String { value.description }

/// One page of objects in a requested order, and where the next page starts (keyset paging).
struct ObjectPage {
    /// The page's objects, in order.
    var objects: [StoredObject]
    /// The primary key to pass as `after` for the next page; nil on the last page.
    var nextAfter: Int64?
}

extension CDStore.Context {
    /// A page of the objects of `entity` (and its sub-entities) matching predicate text typed by a person, in
    /// `sort` order, after the object whose primary key is `after`, with to-many relationships as counts.
    func page(_ entity: String, where predicate: String?, sort: [String], after: Int64? = nil,
              limit: Int) throws -> ObjectPage {
        guard limit > 0 else { throw CDStoreError(.invalidInput, "a page holds at least one object (limit \(limit))") }
        var criteria = try Criteria(parsing: predicate).sorted(by: sort).limit(limit + 1).relationships(as: .counts)
        if let after { criteria = criteria.after(primaryKey: after) }
        var objects = try fetch(entity, matching: criteria)
        var next: Int64?
        if objects.count > limit {
            objects.removeLast()
            next = objects.last?.primaryKey
        }
        return ObjectPage(objects: objects, nextAfter: next)
    }

    /// The object of `entity` or of one of its sub-entities whose primary key is `primaryKey`, with every to-many
    /// relationship as the IDs of its objects; nil when there is none.
    func object(_ entity: Entity, primaryKey: Int64, storeUUID: String) throws -> StoredObject? {
        for member in model.subtree(of: entity) where !member.isAbstract {
            if let found = try object(ObjectID(storeUUID: storeUUID, entity: member.name, primaryKey: primaryKey)) {
                return found
            }
        }
        return nil
    }
}
