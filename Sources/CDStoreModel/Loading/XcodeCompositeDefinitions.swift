import Foundation

/// Composite types of an Xcode model (Xcode 15+): model-level `<compositeAttribute name="Address">` elements
/// holding `<attribute>` elements, which entity attributes of type Composite name with `composite="Address"`.
///
/// Read in a pass of its own over the `contents` XML (cdstore's own XML reader, as a tree), after the model
/// reader has read the same bytes without error, and resolved into
/// ``Attribute/compositeElements`` (a composite's version hash and columns come from its elements). Element
/// names and settings are read as the entity attributes' are; nested composites resolve to 8 levels.
///
/// UNVERIFIED against Xcode: no Xcode-written model with composite types is in the corpus. The element and
/// attribute names are those of coredata-format.md §3 (`compositeAttribute`, `composite="…"`), which calls the
/// element name uncertain; ``XcodeModelWriter`` writes the same form, so cdstore's own files round-trip.
enum XcodeCompositeDefinitions {
    /// Fills the elements of every Composite attribute of `loaded` from the definitions in `data`, and drops the
    /// reader's "skipped unknown element <compositeAttribute>" warnings.
    static func resolve(_ loaded: inout LoadedModel, contents data: Data) {
        guard loaded.model.entities.contains(where: { $0.attributes.contains { $0.type == .composite } }) else { return }
        guard let root = try? XMLTreeElement.parse([UInt8](data)) else { return }
        let definitions = Self.definitions(in: root)
        var entities = loaded.model.entities
        for e in entities.indices {
            for a in entities[e].attributes.indices where entities[e].attributes[a].type == .composite {
                entities[e].attributes[a].compositeElements =
                    elements(entities[e].attributes[a].compositeName, definitions, depth: 0)
            }
        }
        loaded.model.entities = entities
        loaded.warnings.removeAll { $0.contains("<compositeAttribute>") || $0.contains("inside <compositeAttribute>") }
    }

    private static func elements(_ name: String?, _ definitions: [String: [Attribute]], depth: Int) -> [Attribute] {
        guard let name, depth < 8, var found = definitions[name] else { return [] }
        for i in found.indices where found[i].type == .composite {
            found[i].compositeElements = elements(found[i].compositeName, definitions, depth: depth + 1)
        }
        return found
    }

    /// The `<compositeAttribute>` children of the `<model>` element, each with its `<attribute>` elements.
    private static func definitions(in model: XMLTreeElement) -> [String: [Attribute]] {
        var definitions: [String: [Attribute]] = [:]
        for composite in model.children where composite.name == "compositeAttribute" {
            guard let typeName = composite["name"] else { continue }
            definitions[typeName] = []
            for a in composite.children where a.name == "attribute" {
                guard let elementName = a["name"], let type = AttributeType(rawValue: a["attributeType"] ?? "") else { continue }
                let yes = { (key: String) in a[key] == "YES" }
                var element = Attribute(name: elementName, type: type, isOptional: yes("optional"))
                element.isTransient = yes("transient")
                element.defaultValue = a["defaultValueString"]
                element.allowsExternalBinaryDataStorage = yes("allowsExternalBinaryDataStorage")
                element.preservesValueInHistoryOnDeletion = yes("preserveAfterDeletion")
                element.valueTransformerName = a["valueTransformerName"]
                element.compositeName = a["composite"]
                element.renamingIdentifier = a["elementID"]
                element.versionHashModifier = a["versionHashModifier"]
                definitions[typeName, default: []].append(element)
            }
        }
        return definitions
    }
}
