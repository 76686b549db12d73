import CDStoreJSON
import CDStoreModel
internal import GRDB

/// The attribute columns of one object, converted and validated, ready to insert or to merge into a row.
struct AttributeRow {
    /// Column, attribute name and value of every stored attribute of a new object (defaults filled in).
    private(set) var columns: [(column: String, name: String, value: DatabaseValue)] = []
    /// Names of the attributes the input gave, which are the only ones a merge overwrites.
    private var given: Set<String> = []

    /// With `validatingMissing` false, attributes the input leaves out take their default unchecked: a record merged
    /// into an existing object (upsert) keeps that object's values for them, so only the given ones must be valid.
    init(values: [(Attribute, InputValue)], entity: Entity, layout: EntityLayout, model: ManagedObjectModel,
         validation: AttributeValidation, validatingMissing: Bool = true, attributes: [Attribute]? = nil) throws {
        let all = attributes ?? model.attributes(of: entity)
        // A composite's object goes to its element columns, named by path (`home.city`).
        let composites = Dictionary(all.filter { $0.type == .composite && !$0.isTransient }.map { ($0.name, $0) },
                                    uniquingKeysWith: { a, _ in a })
        let pairs = try CompositeInput.expanding(values.map { ($0.0.name, $0.1) }, composites: composites,
                                                 entity: entity.name)
        let inputs = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
        given = Set(inputs.keys)
        for attribute in all.flatMap(\.columnAttributes) where !attribute.isTransient {
            guard let column = layout.attributeColumns[attribute.name] else { continue }
            do {
                let stored = try inputs[attribute.name].map { try AttributeCoding.storedValue($0, for: attribute) }
                    ?? DefaultValues.storedDefault(for: attribute)
                // A derived attribute without a value is Core Data's to compute (now(), aggregates kept by triggers);
                // exports write it as null.
                let derivedLeftOut = attribute.isDerived && stored.isNull
                if (validatingMissing || given.contains(attribute.name)) && !derivedLeftOut { try validation.validate(stored, for: attribute) }
                columns.append((column, attribute.name, stored))
            } catch var error as StoreError {
                error.entity = entity.name
                throw error
            }
        }
    }

    /// The stored value of the attribute called `name`.
    func value(of name: String) -> DatabaseValue? {
        columns.first { $0.name == name }?.value
    }

    /// Inserts a new row for `object`, with `Z_OPT` 1.
    func insert(_ object: ObjectRef, table: String, db: Database) throws {
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.column)
        let values = [object.pk.databaseValue, object.entityNumber.databaseValue, 1.databaseValue] + columns.map(\.value)
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        // Bound exactly: a string with a NUL inside is stored whole.
        try db.executeExactly(sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(marks))", values: values)
    }

    /// Overwrites the given attributes of an existing row (a merge keeps what the input left out).
    func update(_ object: ObjectRef, table: String, db: Database) throws {
        let changed = columns.filter { given.contains($0.name) }
        guard !changed.isEmpty else { return }
        try db.executeExactly(sql: "UPDATE \(table) SET \(changed.map { "\($0.column) = ?" }.joined(separator: ", ")) WHERE Z_PK = ?",
                              values: changed.map(\.value) + [object.pk.databaseValue])
    }
}
