/// `Codable` structs for the CDStore library: one per entity, so that `ctx.fetch(Employee.self)` and
/// `ctx.insert(employee)` need no hand-written record.
///
/// Each struct conforms to CDStore's `EntityRecord` (its `entityName` is the entity's name), `Codable`,
/// `Equatable` and `Sendable`. Its properties: `objectID` (nil until the record is inserted), then every stored
/// attribute and relationship of the entity, inherited ones first (a struct has no parent; fetching an entity
/// gives its sub-entities' objects too, which decode as the parent's struct). Attributes have their Swift types
/// (Integer 64 as `Int64`), optional where the model says optional; a to-one is an `ObjectID?`, a to-many
/// `[ObjectID]`. A Transformable whose values are keyed archives is an `ObjectValue?` (arrays, dictionaries,
/// strings, numbers), any other Transformable its bytes (`Data?`). Transient attributes are not stored and are
/// left out, and so are Undefined and ObjectID attributes, which have no stored Swift value.
struct CodableRecordWriter {
    let model: ManagedObjectModel
    let header: CodeHeader
    let namespace: String?

    /// Transformer names whose stored values are keyed archives (mirrors the store layer's list).
    static let archivingTransformers: Set<String> = [
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData",
    ]

    func code() -> ModelCode {
        var files: [ModelCodeFile] = []
        if let namespace {
            let name = "\(namespace).swift"
            files.append(ModelCodeFile(name: name, text: header.comment(name)
                + "/// The records of the model \(namespace)'s entities.\npublic enum \(namespace) {}\n"))
        }
        for entity in model.entities {
            let name = namespace.map { "\($0)+\(entity.name).swift" } ?? "\(entity.name).swift"
            files.append(ModelCodeFile(name: name, text: header.comment(name) + "import CDStore\nimport Foundation\n\n"
                + structText(entity)))
        }
        return ModelCode(files: files)
    }

    /// A property of the struct.
    struct Field {
        let name: String
        let type: String
        let initial: String?
        let note: String?
    }

    func fields(_ entity: Entity) -> [Field] {
        var result: [Field] = []
        var seen: Set<String> = []
        let owners = model.ancestors(of: entity).reversed() + [entity]
        for owner in owners {
            for attribute in owner.attributes where !attribute.isTransient {
                guard let type = type(attribute) else { continue }
                let optional = attribute.isOptional || attribute.isDerived
                let note = attribute.isDerived ? "Derived by the store (\(attribute.derivationExpression ?? "")): leave nil when inserting." : nil
                // A required attribute's model default is the init's default, as inserts without it take it.
                let initial = optional ? "nil" : SwiftValues.defaultLiteral(attribute)
                result.append(Field(name: attribute.name, type: type + (optional ? "?" : ""), initial: initial, note: note))
            }
            for relationship in owner.relationships where !relationship.isTransient {
                let field = relationship.isToMany
                    ? Field(name: relationship.name, type: "[ObjectID]", initial: "[]",
                            note: "The \(relationship.destination) objects\(relationship.isOrdered ? ", in order" : "").")
                    : Field(name: relationship.name, type: "ObjectID?", initial: "nil", note: "The \(relationship.destination) object.")
                result.append(field)
            }
        }
        // A sub-entity may redeclare an inherited property: the last declaration wins, in the first one's place.
        var byName: [String: Field] = [:]
        for field in result { byName[field.name] = field }
        return result.filter { seen.insert($0.name).inserted }.map { byName[$0.name]! }
    }

    private func type(_ attribute: Attribute) -> String? {
        switch attribute.type {
        case .transformable:
            let transformer = attribute.valueTransformerName ?? ""
            return transformer.isEmpty || Self.archivingTransformers.contains(transformer) ? "ObjectValue" : "Data"
        case .composite, .undefined, .objectID:
            return nil
        default:
            return SwiftValues.type(attribute, plainInt: false)
        }
    }

    func structText(_ entity: Entity) -> String {
        let indent = namespace == nil ? "" : "    "
        let fields = fields(entity)
        let hasOwnObjectID = fields.contains { $0.name == "objectID" }
        var lines: [String] = []
        lines.append("/// An object of the entity \(entity.name), for `ctx.fetch(\(entity.name).self)` and `ctx.insert(_:)`.")
        lines.append("public struct \(entity.name): EntityRecord, Codable, Equatable, Sendable {")
        lines.append("    /// The entity these records are objects of.")
        lines.append("    public static let entityName = \(CodeNames.swiftString(entity.name))")
        lines.append("")
        if !hasOwnObjectID {
            lines.append("    /// The object's ID; nil for a record not yet inserted.")
            lines.append("    public var objectID: ObjectID?")
        }
        for field in fields {
            if let note = field.note { lines.append("    /// \(note)") }
            lines.append("    public var \(CodeNames.swiftIdentifier(field.name)): \(field.type)")
        }
        lines.append("")
        var parameters = hasOwnObjectID ? [] : ["objectID: ObjectID? = nil"]
        parameters += fields.map { "\(CodeNames.swiftIdentifier($0.name)): \($0.type)\($0.initial.map { " = \($0)" } ?? "")" }
        lines.append("    /// A record with these values.")
        lines += CodeNames.signature("public init", parameters, indent: "    " + indent).dropLast()
            .split(separator: "\n", omittingEmptySubsequences: false).map { String($0.dropFirst(indent.count)) }
        if !hasOwnObjectID { lines.append("        self.objectID = objectID") }
        for field in fields {
            let name = CodeNames.swiftIdentifier(field.name)
            lines.append("        self.\(name) = \(name)")
        }
        lines.append("    }")
        lines.append("}")
        let body = lines.map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n") + "\n"
        guard let namespace else { return body }
        return "extension \(namespace) {\n" + body + "}\n"
    }
}
