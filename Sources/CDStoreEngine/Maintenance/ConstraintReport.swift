import CDStoreJSON
import CDStoreModel
internal import GRDB

/// Turns SQLite's constraint failures into errors in the model's terms.
enum ConstraintReport {
    /// SQLite says `UNIQUE constraint failed: ZPERSON.ZFIRSTNAME, ZPERSON.ZLASTNAME`; the user wants the
    /// uniqueness constraint `firstName, lastName` of `Person` and the values that collided.
    static func error(for error: DatabaseError, entity: Entity, model: ManagedObjectModel, layout: StoreLayout,
                      values: [String: InputValue]) -> StoreError {
        let message = error.message ?? ""
        guard let columnsText = message.components(separatedBy: "constraint failed: ").last, message.contains("UNIQUE"),
              let entityLayout = layout.entity(named: entity.name) else {
            return StoreError(.constraintViolation, message, entity: entity.name)
        }
        let columns = columnsText.components(separatedBy: ", ").compactMap { $0.components(separatedBy: ".").last }
        if columns == ["Z_PK"] {
            return StoreError(.constraintViolation, "two objects were given the same primary key (is an \"_id\" repeated?)",
                              entity: entity.name)
        }
        let byColumn = Dictionary(entityLayout.attributeColumns.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let names = columns.map { byColumn[$0] ?? $0 }
        let described = names.map { name in "\(name) = \(values[name]?.summary ?? "null")" }
        return StoreError(.constraintViolation, "uniqueness constraint (\(names.joined(separator: ", "))) violated: "
                          + "an object with \(described.joined(separator: ", ")) already exists", entity: entity.name)
    }
}
