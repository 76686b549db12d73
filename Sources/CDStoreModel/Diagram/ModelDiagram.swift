/// What a diagram of a model draws: entities with their attributes, inheritance, and relationship lines, each
/// inverse pair once; ``mermaid()`` and ``dot()`` write it in a diagram language.
///
/// ```swift
/// let diagram = try model.diagram(around: "Employee", depth: 1)
/// diagram.entities.map(\.name)   // Employee and its neighbours
/// print(diagram.mermaid())        // an erDiagram GitHub draws in Markdown
/// print(diagram.dot())            // Graphviz input: `dot -Tsvg`
/// ```
///
/// Core Data equivalent: Xcode's model editor in graph style.
public struct ModelDiagram: Sendable {
    /// One relationship line: a relationship and, when it has one, its inverse.
    public struct Link: Sendable, Equatable {
        /// The entity that declares ``relationship``.
        public var source: String
        /// The relationship the line starts from.
        public var relationship: Relationship
        /// The entity at the other end.
        public var destination: String
        /// The inverse, declared by ``destination`` or one of its ancestors.
        public var inverse: Relationship?
    }

    /// The model drawn.
    package let model: ManagedObjectModel
    /// The entities drawn, in model order.
    public let entities: [Entity]
    /// The relationships drawn, each inverse pair once, in model order of the entity that declares the first.
    public let links: [Link]
    /// Sub-entity → parent entity, for the drawn entities whose parent is drawn too.
    public let inheritance: [(child: String, parent: String)]

    /// A diagram of the whole model, or of the entities within `depth` steps of `focus` (a step is a relationship
    /// either way, or a parent or sub-entity). Throws when `focus` names no entity.
    package init(_ model: ManagedObjectModel, around focus: String? = nil, depth: Int = 1) throws {
        self.model = model
        var names = Set(model.entities.map(\.name))
        if let focus {
            guard model.entity(named: focus) != nil else {
                throw ModelError(.invalidValue, "no entity '\(focus)' in the model", entity: focus)
            }
            names = Self.neighbourhood(of: focus, in: model, depth: max(0, depth))
        }
        entities = model.entities.filter { names.contains($0.name) }
        var links: [Link] = []
        var drawn: Set<String> = []
        for entity in entities {
            for relationship in entity.relationships where names.contains(relationship.destination) {
                guard drawn.insert("\(entity.name).\(relationship.name)").inserted else { continue }
                let inverse = model.inverse(of: relationship).flatMap { inverse -> Relationship? in
                    // Only a true pair: the inverse names this relationship back.
                    inverse.inverseName == relationship.name ? inverse : nil
                }
                if let inverse { drawn.insert("\(relationship.destination).\(inverse.name)") }
                links.append(Link(source: entity.name, relationship: relationship, destination: relationship.destination, inverse: inverse))
            }
        }
        self.links = links
        inheritance = entities.compactMap { entity in
            entity.parentName.flatMap { names.contains($0) ? (entity.name, $0) : nil }
        }
    }

    /// The entities within `depth` steps of `focus`.
    static func neighbourhood(of focus: String, in model: ManagedObjectModel, depth: Int) -> Set<String> {
        var neighbours: [String: Set<String>] = [:]
        func connect(_ a: String, _ b: String) {
            neighbours[a, default: []].insert(b)
            neighbours[b, default: []].insert(a)
        }
        for entity in model.entities {
            if let parent = entity.parentName { connect(entity.name, parent) }
            for relationship in entity.relationships { connect(entity.name, relationship.destination) }
        }
        var reached: Set<String> = [focus]
        var frontier: Set<String> = [focus]
        for _ in 0..<depth {
            frontier = Set(frontier.flatMap { neighbours[$0] ?? [] }).subtracting(reached)
            reached.formUnion(frontier)
        }
        return reached.filter { model.entity(named: $0) != nil }
    }

    // MARK: - Shared text

    /// How many objects one end of a relationship line holds: from the relationship that leads there.
    enum Cardinality {
        case zeroOrOne, exactlyOne, zeroOrMore, oneOrMore

        init(_ relationship: Relationship?) {
            guard let relationship else {
                // No inverse: any number of sources may lead to the same object.
                self = .zeroOrMore
                return
            }
            if relationship.isToMany {
                self = !relationship.isOptional || relationship.minCount >= 1 ? .oneOrMore : .zeroOrMore
            } else {
                self = relationship.isOptional ? .zeroOrOne : .exactlyOne
            }
        }
    }

    /// `departments (cascade, ordered)`: the name, then the delete rule unless it is Nullify (the default) and
    /// whether a to-many keeps its order.
    static func label(_ relationship: Relationship) -> String {
        var flags: [String] = []
        if relationship.deleteRule != .nullify { flags.append(relationship.deleteRule.rawValue.lowercased()) }
        if relationship.isToMany && relationship.isOrdered { flags.append("ordered") }
        if relationship.isTransient { flags.append("transient") }
        return relationship.name + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
    }

    /// The label of a link: `departments (cascade) / company`, or the one relationship's.
    static func label(_ link: Link) -> String {
        label(link.relationship) + (link.inverse.map { " / " + label($0) } ?? "")
    }

    /// What an attribute's line notes: optional, transient, derived, and `unique` (a uniqueness constraint of its
    /// own) or `unique with company` (a constraint it shares with other properties).
    func flags(_ attribute: Attribute, of entity: Entity) -> [String] {
        var flags: [String] = []
        if attribute.isOptional { flags.append("optional") }
        if attribute.isTransient { flags.append("transient") }
        if attribute.isDerived { flags.append("derived") }
        for constraint in entity.uniquenessConstraints where constraint.contains(attribute.name) {
            let others = constraint.filter { $0 != attribute.name }
            flags.append(others.isEmpty ? "unique" : "unique with " + others.joined(separator: ", "))
        }
        return flags
    }

    func isUnique(_ attribute: Attribute, of entity: Entity) -> Bool {
        entity.uniquenessConstraints.contains { $0.contains(attribute.name) }
    }
}
