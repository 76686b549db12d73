import CDStoreJSON
/// Pass 2 (coredata-format.md §1.6 "Pass 2", "Join table"): inverses, join tables, `Z_FOK_` columns and the
/// hidden to-ones of to-manys without inverse.
extension LayoutBuilder {
    /// Runs pass 2: every entity — sub-entities included, each at its own place — in case-insensitive name
    /// order (not `Z_ENT` order), and in each entity every stored relationship, inherited ones included, in
    /// the legacy T-table order of its L-table keys (§1.6 step 4).
    func runPass2() {
        for name in numbering.nameOrder {
            guard let node = node(named: name) else { continue }
            for key in TTable.order(node.legacyTable.keys, sizedFor: node.sql.count) {
                guard let property = node.sql[key], property.isRelationship, property.name == key else { continue }
                if property.inverse != nil {
                    // Already linked from the other side: a to-one only passes its Z_FOK_ key on.
                    if property.kind == .toOne { addOrderKey(node, property) }
                    continue
                }
                if let inverseName = property.relationship?.inverseName, !inverseName.isEmpty {
                    let other = property.destination?.sql[inverseName]
                    if property.kind == .manyToMany {
                        if let other, other.isRelationship { linkManyToMany(property, other) }
                    } else {
                        linkInverse(property, other)
                        if property.kind == .toOne { addOrderKey(node, property) }
                    }
                } else if property.kind == .toMany, let destination = property.destination {
                    property.inverse = addHiddenToOne(to: destination, for: property, existing: nil)
                }
            }
        }
    }

    /// Links a to-one or one-to-many side to its inverse; a to-one whose inverse is an ordered to-many gets
    /// its `Z_FOK_` column here, from its own hierarchy's generator.
    private func linkInverse(_ property: SQLProperty, _ inverse: SQLProperty?) {
        property.inverse = inverse
        guard property.kind == .toOne, let inverse, inverse.isRelationship, inverse.isOrdered,
              property.orderKeyColumn == nil, let entity = property.entity else { return }
        let column = entity.generator.unique("Z_FOK_" + ColumnNaming.upper(property.name))
        property.orderKeyColumn = column
        addColumn(ColumnRecord(name: column, type: "INTEGER", owner: entity.number, group: .relationship,
                               sortName: property.name, sequence: 2), to: entity)
    }

    /// Adds `property`'s `Z_FOK_` key to `node` and all its sub-entities (keys made in pass 2 go to the
    /// entity concerned and its whole subtree, §1.6 step 3).
    private func addOrderKey(_ node: EntityNode, _ property: SQLProperty) {
        guard let key = property.orderKey else { return }
        addKey(node, key, property)
        for sub in node.subentities { addOrderKey(sub, property) }
    }

    private func addKey(_ node: EntityNode, _ key: String, _ property: SQLProperty) {
        if node.sql[key] == nil {
            node.set(key, property)
            node.legacyTable.add(key)
        }
    }

    /// The hidden "virtual to-one" of a to-many `r` without inverse declared on entity #n: named `<n><r>`,
    /// columns `Z<n>R` (+ `Z<n>_<n>R` when the declaring entity has sub-entities, + `Z_FOK_<n>R` when `r` is
    /// ordered) in the destination's table, named by the destination hierarchy's generator (§1.6 table).
    @discardableResult
    private func addHiddenToOne(to destination: EntityNode, for toMany: SQLProperty,
                                existing: SQLProperty?) -> SQLProperty? {
        guard let source = toMany.entity else { return nil }
        let hidden: SQLProperty
        if let existing {
            hidden = existing
        } else {
            let name = "\(source.number)\(toMany.name)"
            let upper = ColumnNaming.upper(name)
            hidden = make(SQLProperty(kind: .toOne, name: name, entity: destination, destination: source,
                                      isOrdered: false))
            hidden.isHidden = true
            hidden.inverse = toMany
            let column = destination.generator.unique("Z" + upper)
            hidden.column = column
            hidden.keys = ["_" + column]
            addColumn(ColumnRecord(name: column, type: "INTEGER", owner: destination.number, group: .hidden,
                                   sortName: name, sequence: 0), to: destination)
            if !source.subentities.isEmpty {
                let entityKey = destination.generator.unique("Z\(source.number)_" + upper)
                hidden.entityKeyColumn = entityKey
                hidden.keys.append("_" + entityKey)
                addColumn(ColumnRecord(name: entityKey, type: "INTEGER", owner: destination.number, group: .hidden,
                                       sortName: name, sequence: 1), to: destination)
            }
            if toMany.isOrdered {
                let order = destination.generator.unique("Z_FOK_" + upper)
                hidden.orderKeyColumn = order
                addColumn(ColumnRecord(name: order, type: "INTEGER", owner: destination.number, group: .hidden,
                                       sortName: name, sequence: 2), to: destination)
            }
        }
        for key in hidden.keys + [hidden.name] + (hidden.orderKey.map { [$0] } ?? []) {
            addKey(destination, key, hidden)
        }
        for sub in destination.subentities { addHiddenToOne(to: sub, for: toMany, existing: hidden) }
        return hidden
    }

    /// Links the many-to-many side `a` (visited first: it names the join table `Z_<a>`+UPPER(a)) with its
    /// inverse `b`. Column requests come in this order: `b`'s column, `b`'s `Z_FOK_`, `a`'s column, `a`'s
    /// `Z_FOK_`, each from the generator of the hierarchy that declares that side (§1.6 "Join table").
    private func linkManyToMany(_ a: SQLProperty, _ b: SQLProperty) {
        guard let entity = a.entity else { return }
        if a.inverse !== b {
            a.inverse = b
            if a.table == nil {
                // Named after the *declaring* entity's number, even when met while visiting a sub-entity.
                a.table = "Z_\(entity.number)" + ColumnNaming.upper(a.name)
                tablesNamed += 1
                a.tableSequence = tablesNamed
                b.inverse = a
            }
            linkManyToMany(b, a)
        }
        if a.column == nil {
            // Holds the Z_PK of the object that declares `a` (entity #a).
            a.column = entity.generator.unique("Z_\(entity.number)" + ColumnNaming.upper(b.name))
        }
        if a.joinOrderColumn == nil, b.isOrdered {
            // The position of the `a`-side object in the other object's ordered `b`.
            a.joinOrderColumn = entity.generator.unique("Z_FOK_\(entity.number)" + ColumnNaming.upper(b.name))
        }
    }
}
