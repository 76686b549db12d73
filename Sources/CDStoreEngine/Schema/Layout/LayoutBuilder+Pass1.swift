import CDStoreJSON
import CDStoreModel

/// Pass 1 (coredata-format.md §1.5 "Order of requests", §1.6 step 3): attribute, FK and entity-key columns.
extension LayoutBuilder {
    /// Runs pass 1: each root entity (in `Z_ENT` order), then its sub-entities depth first.
    func runPass1() {
        for node in nodes where node.parent == nil {
            generateProperties(node)
        }
    }

    /// Pass 1 for one entity, then its sub-entities.
    ///
    /// A root starts with the fixed keys `_ent`, `_pk`, `_opt` and a new name generator; a sub-entity with a
    /// copy of its parent's properties, generator and L-table keys (in the parent's slot order). The entity
    /// then requests the columns of its *own* stored attributes by name, then of its own stored relationships
    /// by name, and adds their keys to its L-table in the slot order of a scratch L-table that received all its
    /// attributes (then all its relationships) in property-dictionary order.
    private func generateProperties(_ node: EntityNode) {
        if let parent = node.parent {
            node.inherit(from: parent)
        } else {
            for key in ["_ent", "_pk", "_opt"] {
                node.set(key, make(SQLProperty(kind: .fixedKey, name: key)))
                node.legacyTable.add(key)
            }
        }
        addAttributes(of: node)
        addRelationships(of: node)
        for sub in node.subentities { generateProperties(sub) }
    }

    private func addAttributes(of node: EntityNode) {
        var attributes: [Attribute] = []
        for case .attribute(let attribute) in node.properties { attributes.append(attribute) }
        var new: Set<String> = []
        for attribute in attributes.sorted(by: { Self.utf16Precedes($0.name, $1.name) }) {
            // Composite attributes (flattened by Core Data) and types without a column are left out.
            guard !attribute.isTransient, node.sql[attribute.name] == nil,
                  let type = Self.storedSQLType(attribute.type) else { continue }
            let column = node.generator.unique(ColumnNaming.attributeBase(attribute.name))
            let property = make(SQLProperty(kind: .attribute, name: attribute.name, entity: node))
            property.column = column
            property.sqlType = type
            node.set(attribute.name, property)
            addColumn(ColumnRecord(name: column, type: type, owner: node.number, group: .attribute,
                                   sortName: attribute.name, sequence: 0), to: node)
            new.insert(attribute.name)
        }
        for key in LTable(attributes.map(\.name)).keys where new.contains(key) {
            node.legacyTable.add(key)
        }
        addCompositeElements(of: attributes, to: node)
    }

    /// Composite attributes are flattened (coredata-format.md §1.5): one column per element, named from the
    /// element alone (`Z` + upper(element)), requested after the entity's other attributes so that a clash gives
    /// the element the numeric suffix (`ZID` is the entity's `id`, `ZID1` an element `id`). The property is keyed
    /// by its path (`address.city`), which is how the rest of the store layer names an element.
    ///
    /// Evidence: the element-named columns and the suffix on a clash with an attribute are from two real SwiftData
    /// stores with composites (coredata-format.md §1.5). Not seen in any store at hand: two composites sharing an
    /// element name (here the composite first by name keeps the plain name) and nested composites. The corpus's
    /// two SwiftData stores (CartKit, FreezeRay) hold no composite at all (their `sqlite_master`), so the corpus
    /// tests cannot pin this; `SwiftDataStoreTests` pins cdstore's reading.
    private func addCompositeElements(of attributes: [Attribute], to node: EntityNode) {
        for attribute in attributes.sorted(by: { Self.utf16Precedes($0.name, $1.name) })
        where attribute.type == .composite && !attribute.isTransient {
            for (path, element) in Self.flattenedElements(of: attribute) {
                guard node.sql[path] == nil, let type = Self.storedSQLType(element.type) else { continue }
                let column = node.generator.unique(ColumnNaming.attributeBase(element.name))
                let property = make(SQLProperty(kind: .attribute, name: path, entity: node))
                property.column = column
                property.sqlType = type
                node.set(path, property)
                addColumn(ColumnRecord(name: column, type: type, owner: node.number, group: .attribute,
                                       sortName: element.name, sequence: 0), to: node)
            }
        }
    }

    /// The leaf elements of a composite with their paths (`address.city`; nested composites give longer paths),
    /// each level in name order.
    static func flattenedElements(of composite: Attribute, prefix: String = "") -> [(String, Attribute)] {
        var result: [(String, Attribute)] = []
        let path = prefix.isEmpty ? composite.name : prefix + "." + composite.name
        for element in composite.compositeElements.sorted(by: { utf16Precedes($0.name, $1.name) }) {
            if element.type == .composite {
                result += flattenedElements(of: element, prefix: path)
            } else {
                result.append((path + "." + element.name, element))
            }
        }
        return result
    }

    private func addRelationships(of node: EntityNode) {
        var relationships: [Relationship] = []
        for case .relationship(let relationship) in node.properties { relationships.append(relationship) }
        var new: Set<String> = []
        for relationship in relationships.sorted(by: { Self.utf16Precedes($0.name, $1.name) }) {
            guard !relationship.isTransient, node.sql[relationship.name] == nil,
                  let destination = self.node(named: relationship.destination) else { continue }
            let property: SQLProperty
            if !relationship.isToMany {
                property = make(SQLProperty(kind: .toOne, name: relationship.name, entity: node,
                                            destination: destination, relationship: relationship))
                let upper = ColumnNaming.upper(relationship.name)
                let column = node.generator.unique("Z" + upper)
                property.column = column
                property.keys = ["_" + column]
                addColumn(ColumnRecord(name: column, type: "INTEGER", owner: node.number, group: .relationship,
                                       sortName: relationship.name, sequence: 0), to: node)
                // The entity-key column carries the *declared* destination's number (§1.6 table).
                if !destination.subentities.isEmpty {
                    let entityKey = node.generator.unique("Z\(destination.number)_" + upper)
                    property.entityKeyColumn = entityKey
                    property.keys.append("_" + entityKey)
                    addColumn(ColumnRecord(name: entityKey, type: "INTEGER", owner: node.number, group: .relationship,
                                           sortName: relationship.name, sequence: 1), to: node)
                }
                for key in property.keys { node.set(key, property) }
            } else {
                let manyToMany = inverseIsToMany(relationship)
                property = make(SQLProperty(kind: manyToMany ? .manyToMany : .toMany, name: relationship.name,
                                            entity: node, destination: destination, relationship: relationship,
                                            isOrdered: relationship.isOrdered))
            }
            node.set(relationship.name, property)
            new.insert(relationship.name)
        }
        for key in LTable(relationships.map(\.name)).keys where new.contains(key) {
            for ownKey in node.sql[key]!.keys { node.legacyTable.add(ownKey) }
            node.legacyTable.add(key)
        }
    }

    /// Whether `relationship` has an inverse that is a to-many (then it is a many-to-many side).
    private func inverseIsToMany(_ relationship: Relationship) -> Bool {
        guard let inverseName = relationship.inverseName, !inverseName.isEmpty,
              let destination = model.entity(named: relationship.destination),
              let inverse = model.relationship(inverseName, of: destination) else { return false }
        return inverse.isToMany
    }
}
