/// Links relationship inverses as SwiftData does: an `@Relationship(inverse:)` on either side links both;
/// otherwise two relationships are each other's inverse when each is the only one of its entity that points at
/// the other's entity. A relationship only one side declares (CartKit's `items`, with no property back) has no
/// inverse, which Core Data stores as a hidden foreign key in the destination's table.
///
/// The Swift source reader links what it reads with it, and the SwiftData code generator foresees with it how
/// the classes it writes will read back (``SwiftDataLosses``).
package enum SwiftInverseInference {
    /// Links `model`'s relationships: first each `explicit` pair (the `@Relationship(inverse:)` arguments), then
    /// the unambiguous ones.
    package static func link(_ model: inout ManagedObjectModel,
                             explicit: [(entity: String, relationship: String, inverse: (entity: String, name: String))]) {
        var entities = model.entities
        var linked: Set<String> = []
        func index(_ entity: String, _ name: String) -> (Int, Int)? {
            guard let e = entities.firstIndex(where: { $0.name == entity }),
                  let r = entities[e].relationships.firstIndex(where: { $0.name == name }) else { return nil }
            return (e, r)
        }
        func connect(_ a: (Int, Int), _ b: (Int, Int)) {
            let (ae, ar) = a, (be, br) = b
            entities[ae].relationships[ar].inverseName = entities[be].relationships[br].name
            entities[ae].relationships[ar].inverseEntity = entities[be].name
            entities[be].relationships[br].inverseName = entities[ae].relationships[ar].name
            entities[be].relationships[br].inverseEntity = entities[ae].name
            linked.insert(entities[ae].name + "." + entities[ae].relationships[ar].name)
            linked.insert(entities[be].name + "." + entities[be].relationships[br].name)
        }
        for link in explicit {
            guard let a = index(link.entity, link.relationship), let b = index(link.inverse.entity, link.inverse.name)
            else { continue }
            connect(a, b)
        }
        for e in entities.indices {
            for r in entities[e].relationships.indices {
                let source = entities[e].name, relationship = entities[e].relationships[r]
                guard !linked.contains(source + "." + relationship.name) else { continue }
                let destination = relationship.destination
                let outgoing = entities[e].relationships.filter {
                    $0.destination == destination && !linked.contains(source + "." + $0.name)
                }
                guard outgoing.count == 1, let d = entities.firstIndex(where: { $0.name == destination }) else { continue }
                let incoming = entities[d].relationships.enumerated().filter { _, candidate in
                    candidate.destination == source && !linked.contains(destination + "." + candidate.name)
                }
                // A class pointing at itself once (`var next: Node?`) has no distinct other side.
                guard incoming.count == 1, !(d == e && incoming[0].offset == r) else { continue }
                connect((e, r), (d, incoming[0].offset))
            }
        }
        model.entities = entities
    }
}
