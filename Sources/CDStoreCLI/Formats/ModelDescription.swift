import CDStore

/// How `model show` prints a model, as text for people and as JSON for scripts.
enum ModelDescription {
    /// `{"entities":[{"name","parent","abstract","attributes":[…],"relationships":[…]}]}`; a composite attribute
    /// has its `elements`, a to-many relationship with count limits its `minCount`/`maxCount`.
    static func json(_ model: ManagedObjectModel) -> ObjectValue {
        .dictionary([("entities", .array(model.entities.map { entity in
            var fields: [(String, ObjectValue)] = [
                ("name", .string(entity.name)),
                ("parent", entity.parentName.map { .string($0) } ?? .null),
                ("abstract", .bool(entity.isAbstract)),
                ("attributes", .array(entity.attributes.map(attributeJSON))),
                ("relationships", .array(entity.relationships.map(relationshipJSON))),
            ]
            if !entity.uniquenessConstraints.isEmpty {
                fields.append(("uniquenessConstraints", .array(entity.uniquenessConstraints.map { .array($0.map { .string($0) }) })))
            }
            if !entity.fetchIndexes.isEmpty {
                fields.append(("fetchIndexes", .array(entity.fetchIndexes.map { .string($0.name) })))
            }
            return .dictionary(fields)
        }))])
    }

    private static func attributeJSON(_ attribute: Attribute) -> ObjectValue {
        var fields: [(String, ObjectValue)] = [
            ("name", .string(attribute.name)),
            ("type", .string(attribute.type.rawValue)),
            ("optional", .bool(attribute.isOptional)),
        ]
        if attribute.isTransient { fields.append(("transient", .bool(true))) }
        if let text = defaultText(attribute) { fields.append(("default", .string(text))) }
        if let min = attribute.minValue { fields.append(("min", .string(min))) }
        if let max = attribute.maxValue { fields.append(("max", .string(max))) }
        if let regex = attribute.regularExpression { fields.append(("regularExpression", .string(regex))) }
        if let expression = attribute.derivationExpression { fields.append(("derivation", .string(expression))) }
        if let transformer = attribute.valueTransformerName { fields.append(("valueTransformer", .string(transformer))) }
        if attribute.type == .transformable {
            fields.append(("values", .string(attribute.transformableValuesAreJSON ? "json" : "base64")))
        }
        if attribute.allowsExternalBinaryDataStorage { fields.append(("externalStorage", .bool(true))) }
        if attribute.isIndexed { fields.append(("indexed", .bool(true))) }
        if attribute.type == .composite { fields.append(("elements", .array(attribute.compositeElements.map(attributeJSON)))) }
        return .dictionary(fields)
    }

    private static func relationshipJSON(_ relationship: Relationship) -> ObjectValue {
        var fields: [(String, ObjectValue)] = [
            ("name", .string(relationship.name)),
            ("destination", .string(relationship.destination)),
            ("toMany", .bool(relationship.isToMany)),
            ("inverse", relationship.inverseName.map { .string($0) } ?? .null),
            ("deleteRule", .string(relationship.deleteRule.rawValue)),
            ("ordered", .bool(relationship.isOrdered)),
            ("optional", .bool(relationship.isOptional)),
        ]
        if relationship.isToMany && relationship.minCount > 0 { fields.append(("minCount", .integer(Int64(relationship.minCount)))) }
        if relationship.isToMany && relationship.maxCount > 0 { fields.append(("maxCount", .integer(Int64(relationship.maxCount)))) }
        return .dictionary(fields)
    }

    /// A to-many relationship's count limits as Xcode shows them: `at least 1`, `at most 10`, `1...10`.
    private static func countLimits(_ relationship: Relationship) -> String? {
        switch (relationship.minCount, relationship.maxCount) {
        case (0, 0): nil
        case (let min, 0): "at least \(min)"
        case (0, let max): "at most \(max)"
        case (let min, let max): "\(min)...\(max)"
        }
    }

    private static func defaultText(_ attribute: Attribute) -> String? {
        if let interval = attribute.defaultDateTimeInterval { return ObjectValue.date(interval).plainText }
        return attribute.defaultValue
    }

    /// One block per entity: a heading, then attributes and relationships in aligned columns.
    static func text(_ model: ManagedObjectModel, output: TextOutput) {
        for (index, entity) in model.entities.enumerated() {
            if index > 0 { output.line("") }
            var heading = entity.name
            if let parent = entity.parentName { heading += " : \(parent)" }
            if entity.isAbstract { heading += "  (abstract)" }
            output.line(heading)
            var rows: [[String]] = entity.attributes.map { attribute in
                var notes: [String] = [attribute.isOptional ? "optional" : "required"]
                if attribute.isTransient { notes.append("transient") }
                if let text = defaultText(attribute) { notes.append("default \(text)") }
                if let min = attribute.minValue { notes.append("min \(min)") }
                if let max = attribute.maxValue { notes.append("max \(max)") }
                if let regex = attribute.regularExpression { notes.append("matches \(regex)") }
                if let expression = attribute.derivationExpression { notes.append("derived \(expression)") }
                if attribute.type == .composite {
                    // The elements, each a column of the entity's table (nested composites show their own name).
                    notes.append("elements " + attribute.compositeElements.map { element in
                        "\(element.name) \(element.type.rawValue)\(element.isOptional ? "?" : "")"
                    }.joined(separator: ", "))
                }
                if attribute.allowsExternalBinaryDataStorage { notes.append("external storage") }
                if attribute.isIndexed { notes.append("indexed") }
                if attribute.type == .transformable {
                    let transformer = attribute.valueTransformerName ?? "default"
                    notes.append(attribute.transformableValuesAreJSON
                                 ? "transformer \(transformer): values as JSON" : "transformer \(transformer): values as base64 blobs")
                }
                return [attribute.name, attribute.type.rawValue, notes.joined(separator: ", ")]
            }
            rows += entity.relationships.map { relationship in
                var notes: [String] = [relationship.isToMany ? (relationship.isOrdered ? "to-many, ordered" : "to-many") : "to-one"]
                if relationship.isToMany, let limits = countLimits(relationship) { notes.append(limits) }
                notes.append(relationship.isOptional ? "optional" : "required")
                if let inverse = relationship.inverseName { notes.append("inverse \(inverse)") }
                notes.append("delete \(relationship.deleteRule.rawValue)")
                return [relationship.name, "-> \(relationship.destination)", notes.joined(separator: ", ")]
            }
            let width0 = rows.map { $0[0].count }.max() ?? 0
            let width1 = rows.map { $0[1].count }.max() ?? 0
            for row in rows {
                output.line("  " + row[0].padding(toLength: width0, withPad: " ", startingAt: 0) + "  "
                            + row[1].padding(toLength: width1, withPad: " ", startingAt: 0) + "  " + row[2])
            }
            for constraint in entity.uniquenessConstraints {
                output.line("  unique (\(constraint.joined(separator: ", ")))")
            }
            for index in entity.fetchIndexes {
                output.line("  index \(index.name) (\(index.elements.map { $0.property ?? $0.expression ?? "?" }.joined(separator: ", ")))")
            }
        }
    }
}
