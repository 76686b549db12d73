extension SwiftDataLosses {
    /// The relationships whose inverse the generated classes cannot keep: SwiftData links the `inverse:` the code
    /// names on both sides, and takes two relationships for each other's inverse when each is the only one of its
    /// class pointing at the other's (``SwiftInverseInference``). A one-sided inverse, or two relationships the model
    /// leaves unlinked although nothing else points between their entities, therefore read back otherwise.
    func inverseLosses() -> [String] {
        var unlinked = model
        var explicit: [(entity: String, relationship: String, inverse: (entity: String, name: String))] = []
        for e in unlinked.entities.indices {
            let entity = unlinked.entities[e]
            for r in entity.relationships.indices {
                let relationship = entity.relationships[r]
                if !relationship.isTransient, let inverse = model.inverse(of: relationship),
                   SwiftDataWriter.declaresInverse(relationship, of: entity, inverse: inverse) {
                    explicit.append((entity.name, relationship.name,
                                     (relationship.inverseEntity ?? relationship.destination, inverse.name)))
                }
                unlinked.entities[e].relationships[r].inverseName = nil
                unlinked.entities[e].relationships[r].inverseEntity = nil
            }
            unlinked.entities[e].relationships.removeAll(where: \.isTransient)
        }
        var readBack = unlinked
        SwiftInverseInference.link(&readBack, explicit: explicit)
        var losses: [String] = []
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                guard let back = readBack.entity(named: entity.name)?.relationship(named: relationship.name) else { continue }
                let before = describe(relationship, of: entity), after = describe(back, of: entity)
                guard before != after else { continue }
                losses.append("entity '\(entity.name)', relationship '\(relationship.name)': \(before) in the model; "
                              + "SwiftData reads the generated class with \(after) (the version hash changes)")
            }
        }
        return losses
    }

    /// The inverse as the version hash sees it: a relationship that is its own inverse hashes as one without
    /// (coredata-format.md §2.3), which is what a reflexive many-to-many reads back as.
    private func describe(_ relationship: Relationship, of entity: Entity) -> String {
        guard let name = relationship.inverseName else { return "no inverse" }
        let inverseEntity = relationship.inverseEntity ?? relationship.destination
        if name == relationship.name && inverseEntity == entity.name { return "no inverse" }
        return "inverse \(inverseEntity).\(name)"
    }
}
