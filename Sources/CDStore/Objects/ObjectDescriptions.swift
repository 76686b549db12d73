import CDStoreEngine

extension StoredObject: CustomStringConvertible {
    /// The object ID, then each property and its value in model order:
    /// `x-coredata://…/Employee/p3 {firstName: "Ann", age: 34, department: "x-coredata://…/Department/p1"}`.
    public var description: String {
        objectID.description + " " + Self.describe(zip(keys.names, values))
    }

    /// `{key: value, …}` with each value as JSON text.
    static func describe(_ pairs: some Sequence<(String, ObjectValue)>) -> String {
        "{" + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    }
}

extension ProjectionRow: CustomStringConvertible {
    /// The result keys and their values in request order: `{department.name: "R&D", people: 3}`.
    public var description: String { StoredObject.describe(zip(keys.names, values)) }
}
