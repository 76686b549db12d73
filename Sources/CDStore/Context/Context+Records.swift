import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreSQLite

extension CDStore.Context {
    /// The objects of `entity` that match a predicate, decoded as `T`.
    ///
    /// ```swift
    /// struct Employee: Decodable {
    ///     var objectID: ObjectID          // the object's own ID
    ///     var firstName: String
    ///     var age: Int?
    ///     var hiredAt: Date
    ///     var department: ObjectID?       // a to-one relationship
    /// }
    /// let seniors = try ctx.fetch(Employee.self, from: "Employee", where: "age >= %@", 50, sort: ["lastName"])
    /// ```
    ///
    /// Each coding key is a property name. Attribute values decode as their Swift types (`String`, the integer
    /// types, `Double`, `Float`, `Decimal`, `Bool`, `Date`, `Data`, `UUID`, `URL`), to-one relationships as
    /// ``ObjectID`` and to-many relationships as `[ObjectID]`. A value of the wrong type, or nil for a
    /// non-optional property, is ``CDStoreError/Code/coding`` naming the property.
    public func fetch<T: Decodable>(_ type: T.Type, from entity: String, where format: String? = nil,
                                    _ arguments: any ObjectValueConvertible..., sort: [String] = [], limit: Int? = nil,
                                    offset: Int? = nil) throws -> [T] {
        let request = try request(entity, format, arguments, sort: sort, limit: limit, offset: offset)
        return try fetch(request).map { try $0.decode(type) }
    }

    /// The first object that matches, decoded as `T`; nil when none does.
    public func fetchOne<T: Decodable>(_ type: T.Type, from entity: String, where format: String? = nil,
                                       _ arguments: any ObjectValueConvertible..., sort: [String] = []) throws -> T? {
        let request = try request(entity, format, arguments, sort: sort, limit: 1, offset: nil)
        return try fetch(request).first.map { try $0.decode(type) }
    }
}
