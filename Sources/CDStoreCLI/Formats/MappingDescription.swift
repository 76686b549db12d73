import CDStore
import Foundation

/// How `mapping show` and `mapping infer` print a mapping model: text for people, one JSON object for scripts.
enum MappingDescription {
    /// A heading, then per entity mapping (in the order they run) its source → destination, type, policy, filter
    /// and every value expression ("(none)": the property keeps its default).
    static func lines(_ mapping: MappingModel) -> [String] {
        let count = mapping.entityMappings.count
        var lines = ["mapping model \(URL(fileURLWithPath: mapping.file).lastPathComponent) (\(mapping.format.rawValue)), "
                     + "\(count) entity mapping\(count == 1 ? "" : "s")"]
        if let path = mapping.sourceModelPath { lines.append("  source model: \(path)") }
        if let path = mapping.destinationModelPath { lines.append("  destination model: \(path)") }
        for (index, entityMapping) in mapping.entityMappings.enumerated() {
            lines.append("\(index + 1). \(entityMapping.name): \(entityMapping.sourceEntityName ?? "(none)") → "
                         + "\(entityMapping.destinationEntityName ?? "(none)") (\(entityMapping.type.name))")
            lines.append("   policy: \(entityMapping.policyClassName ?? "NSEntityMigrationPolicy (default)")")
            if entityMapping.sourceEntityName != nil {
                lines.append("   filter: \(entityMapping.filterPredicate ?? "TRUEPREDICATE")")
            }
            for property in entityMapping.attributeMappings {
                lines.append("   attribute \(property.name) = \(property.valueExpression ?? "(none)")")
            }
            for property in entityMapping.relationshipMappings {
                lines.append("   relationship \(property.name) = \(property.valueExpression ?? "(none)")")
            }
        }
        return lines
    }

    /// The mapping model as one JSON object, keys in a fixed order (for golden tests and `jq`).
    static func json(_ mapping: MappingModel) -> ObjectValue {
        func text(_ value: String?) -> ObjectValue { value.map(ObjectValue.string) ?? .null }
        func hash(_ bytes: [UInt8]?) -> ObjectValue { text(bytes.map { Data($0).base64EncodedString() }) }
        func properties(_ list: [MappingModel.PropertyMapping]) -> ObjectValue {
            .array(list.map { .dictionary([("name", .string($0.name)), ("valueExpression", text($0.valueExpression)),
                                           ("generated", .bool($0.isGenerated))]) })
        }
        let entityMappings = mapping.entityMappings.map { entityMapping -> ObjectValue in
            .dictionary([
                ("name", .string(entityMapping.name)),
                ("source", text(entityMapping.sourceEntityName)),
                ("destination", text(entityMapping.destinationEntityName)),
                ("type", .string(entityMapping.type.name)),
                ("policyClass", text(entityMapping.policyClassName)),
                ("filter", text(entityMapping.filterPredicate)),
                ("sourceExpression", text(entityMapping.sourceExpression)),
                ("sourceEntityVersionHash", hash(entityMapping.sourceEntityVersionHash)),
                ("destinationEntityVersionHash", hash(entityMapping.destinationEntityVersionHash)),
                ("attributeMappings", properties(entityMapping.attributeMappings)),
                ("relationshipMappings", properties(entityMapping.relationshipMappings)),
            ])
        }
        return .dictionary([
            ("file", .string(URL(fileURLWithPath: mapping.file).lastPathComponent)),
            ("format", .string(mapping.format.rawValue)),
            ("sourceModel", text(mapping.sourceModelPath)),
            ("destinationModel", text(mapping.destinationModelPath)),
            ("entityMappings", .array(entityMappings)),
        ])
    }
}

extension MappingDescription {
    /// Prints `mapping` in `format` to `output`.
    static func write(_ mapping: MappingModel, as format: MappingFormat, to output: TextOutput) {
        switch format {
        case .text: for line in lines(mapping) { output.line(line) }
        case .json: output.line(json(mapping).description)
        }
    }
}
