extension CDStore.Context {
    /// The objects of `entity` that `criteria` select, decoded as `T`.
    ///
    /// ```swift
    /// struct Employee: Decodable {
    ///     var objectID: ObjectID          // the object's own ID
    ///     var firstName: String
    ///     var age: Int?
    ///     var hiredAt: Date
    ///     var department: ObjectID?       // a to-one relationship
    /// }
    /// let seniors = try ctx.fetch(Employee.self, from: "Employee",
    ///                             matching: Criteria.greaterThanOrEqual("age", 50).sorted(by: ["lastName"]))
    /// ```
    ///
    /// Each coding key is a property name. Attribute values decode as their Swift types (`String`, the integer
    /// types, `Double`, `Float`, `Decimal`, `Bool`, `Date`, `Data`, `UUID`, `URL`), to-one relationships as
    /// ``ObjectID`` and to-many relationships as `[ObjectID]`. A value of the wrong type, or nil for a
    /// non-optional property, is ``CDStoreError/Code/coding`` naming the property. An ``EntityRecord`` type names
    /// its entity itself: `from` defaults to `T.entityName`.
    public func fetch<T: Decodable>(_ type: T.Type, from entity: String? = nil, matching criteria: Criteria = .all) throws -> [T] {
        try fetch(criteria.request(for: try Self.entityName(of: type, entity, argument: "from"))).map { try $0.decode(type) }
    }

    /// The entity a record type is fetched from or inserted into: the one named, else the type's
    /// ``EntityRecord/entityName``; `argument` is the label that names one (`from`, `into`).
    static func entityName<T>(of type: T.Type, _ named: String?, argument: String) throws -> String {
        if let named { return named }
        if let record = type as? any EntityRecord.Type { return record.entityName }
        throw CDStoreError(.invalidInput, "\(T.self) names no entity: pass \(argument): \"Entity\", or make it an EntityRecord")
    }
}
