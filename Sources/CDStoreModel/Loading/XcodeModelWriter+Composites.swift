/// Composite types as Xcode 15+ writes them: one model-level `<compositeAttribute name="…">` per type, with its
/// elements as `<attribute>` children, named by the entity attributes' `composite="…"`.
extension XcodeModelWriter {
    /// Names every composite type of `model` (its ``Attribute/compositeName``, else the attribute's name
    /// capitalised; a name given to different elements is suffixed `2`, `3`, …), sets the names on the
    /// attributes, and returns the definitions to write, nested composites included, in first-use order.
    static func nameComposites(_ model: inout ManagedObjectModel) -> [ModelXMLElement] {
        var definitions: [(name: String, elements: [Attribute])] = []
        func define(_ attribute: inout Attribute, depth: Int) {
            // A composite without elements (a model read from XML whose types were not found) has nothing to
            // define: it keeps the name it was written with.
            guard attribute.type == .composite, !attribute.compositeElements.isEmpty, depth < 8 else { return }
            for i in attribute.compositeElements.indices { define(&attribute.compositeElements[i], depth: depth + 1) }
            let base = attribute.compositeName ?? (attribute.name.prefix(1).uppercased() + attribute.name.dropFirst())
            var name = base
            var counter = 1
            while let known = definitions.first(where: { $0.name == name }), known.elements != attribute.compositeElements {
                counter += 1
                name = base + String(counter)
            }
            attribute.compositeName = name
            if !definitions.contains(where: { $0.name == name }) {
                definitions.append((name, attribute.compositeElements))
            }
        }
        var entities = model.entities
        for e in entities.indices {
            for a in entities[e].attributes.indices { define(&entities[e].attributes[a], depth: 0) }
        }
        model.entities = entities
        return definitions.map { definition in
            var element = ModelXMLElement("compositeAttribute")
            element.set("name", definition.name)
            element.children = definition.elements.map(attributeElement)
            return element
        }
    }
}
