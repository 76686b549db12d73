import CDStoreJSON
import Foundation

extension MappingModel {
    /// The mapping model readably: a heading, then per entity mapping (in the order they run) its source →
    /// destination, type, policy, filter and every value expression ("(none)": the property keeps its default).
    package var lines: [String] {
        var lines = ["mapping model \(URL(fileURLWithPath: file).lastPathComponent) (\(format.rawValue)), "
                     + "\(entityMappings.count) entity mapping\(entityMappings.count == 1 ? "" : "s")"]
        if let sourceModelPath { lines.append("  source model: \(sourceModelPath)") }
        if let destinationModelPath { lines.append("  destination model: \(destinationModelPath)") }
        for (index, mapping) in entityMappings.enumerated() {
            lines.append("\(index + 1). \(mapping.name): \(mapping.sourceEntityName ?? "(none)") → "
                         + "\(mapping.destinationEntityName ?? "(none)") (\(mapping.type.name))")
            lines.append("   policy: \(mapping.policyClassName ?? "NSEntityMigrationPolicy (default)")")
            if mapping.sourceEntityName != nil { lines.append("   filter: \(mapping.filterPredicate ?? "TRUEPREDICATE")") }
            for property in mapping.attributeMappings {
                lines.append("   attribute \(property.name) = \(property.valueExpression ?? "(none)")")
            }
            for property in mapping.relationshipMappings {
                lines.append("   relationship \(property.name) = \(property.valueExpression ?? "(none)")")
            }
        }
        return lines
    }

    /// The mapping model as one JSON object (keys in a fixed order, for golden tests and `jq`).
    package var json: String {
        func string(_ s: String?) -> String { s.map(JSONStringLiteral.quoted) ?? "null" }
        func hash(_ bytes: [UInt8]?) -> String { string(bytes.map { Data($0).base64EncodedString() }) }
        func properties(_ list: [PropertyMapping]) -> String {
            "[" + list.map { "{\"name\":\(string($0.name)),\"valueExpression\":\(string($0.valueExpression)),\"generated\":\($0.isGenerated)}" }
                .joined(separator: ",") + "]"
        }
        let mappings = entityMappings.map { m in
            "{\"name\":\(string(m.name)),\"source\":\(string(m.sourceEntityName)),\"destination\":\(string(m.destinationEntityName)),"
                + "\"type\":\(string(m.type.name)),\"policyClass\":\(string(m.policyClassName)),\"filter\":\(string(m.filterPredicate)),"
                + "\"sourceExpression\":\(string(m.sourceExpression)),\"sourceEntityVersionHash\":\(hash(m.sourceEntityVersionHash)),"
                + "\"destinationEntityVersionHash\":\(hash(m.destinationEntityVersionHash)),"
                + "\"attributeMappings\":\(properties(m.attributeMappings)),\"relationshipMappings\":\(properties(m.relationshipMappings))}"
        }
        return "{\"file\":\(string(URL(fileURLWithPath: file).lastPathComponent)),\"format\":\(string(format.rawValue)),"
            + "\"sourceModel\":\(string(sourceModelPath)),\"destinationModel\":\(string(destinationModelPath)),"
            + "\"entityMappings\":[" + mappings.joined(separator: ",") + "]}"
    }
}
