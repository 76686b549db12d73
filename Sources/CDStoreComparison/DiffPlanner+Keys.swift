import CDStoreEngine
import CDStoreJSON
import CDStoreModel

/// One value of a diff key: an attribute of the entity (`name`) or of the object a to-one relationship leads to
/// (`company.name`, for a uniqueness constraint that names the relationship `company`).
struct KeyMember {
    /// The key path in its store's model.
    var path: String
    /// The attribute at its end, which says how its values read.
    var attribute: Attribute
}

/// The key chosen for an entity, in each store's model (empty for an entity that model lacks, or for `Z_PK`).
struct ChosenKey {
    var kind: DiffKey
    var a: [KeyMember]
    var b: [KeyMember]

    static let primaryKey = ChosenKey(kind: .primaryKey, a: [], b: [])
}

extension DiffPlanner {
    /// How objects of the entity are matched: `--key`, else a uniqueness constraint, else the identity attribute
    /// of the user info, else `Z_PK`. A key must exist in both models with values stored alike (both integers,
    /// both floating-point, both text, both UUIDs). A constraint member that is a to-one relationship stands for
    /// the key of the related object (`company` → `company.name`) when that key is made of attributes
    /// (`following` is false while that key is looked for, so keys do not nest).
    func key(_ old: Entity?, _ new: Entity?, following: Bool = true) throws -> ChosenKey {
        let (entity, onB) = new.map { ($0, true) } ?? (old!, false)
        let store = onB ? b : a
        let lineage = [entity] + store.model.ancestors(of: entity)
        let oldLineage = old.map { [$0] + a.model.ancestors(of: $0) } ?? []
        if let owner = (lineage + oldLineage).first(where: { options.keys[$0.name] != nil }), let names = options.keys[owner.name] {
            guard let members = try members(names, of: entity, onB: onB, old: old, following: following, strict: following) else {
                return .primaryKey
            }
            guard let pair = counterparts(members, old, new) else {
                throw StoreError(.invalidInput, "\(names.joined(separator: ",")) cannot match objects: a key must be "
                                 + "stored alike in both models (integers, floating-point numbers, dates, strings, URIs or UUIDs)",
                                 entity: entity.name).about(.matchKeys)
            }
            return ChosenKey(kind: .given(members.map(\.path)), a: pair.0, b: pair.1)
        }
        var candidates: [(DiffKey, [KeyMember])] = []
        for member in lineage {
            for constraint in member.uniquenessConstraints {
                if let found = try members(constraint, of: entity, onB: onB, old: old, following: following) {
                    candidates.append((.uniquenessConstraint(found.map(\.path)), found))
                }
            }
        }
        // A constraint the other version had (dropped by a migration) matches as well as one of this version.
        if let old, let new {
            for member in oldLineage {
                for constraint in member.uniquenessConstraints {
                    let previous = stored(old, a)
                    let found = constraint.compactMap { name in previous.first { $0.name == name } }
                    guard found.count == constraint.count else { continue }
                    let mapped = found.compactMap { attribute in stored(new, b).first { matcher.sourceAttribute(for: $0, in: old)?.name == attribute.name } }
                    if mapped.count == found.count {
                        candidates.append((.uniquenessConstraint(mapped.map(\.name)), mapped.map { KeyMember(path: $0.name, attribute: $0) }))
                    }
                }
            }
        }
        let identity = JSONMapping.fromModel(store.model).mapping(for: entity, in: store.model).identity
        if let found = try members(identity, of: entity, onB: onB, old: old, following: following) {
            candidates.append((.identityAttribute(found.map(\.path)), found))
        }
        for (kind, found) in candidates {
            if let pair = counterparts(found, old, new) { return ChosenKey(kind: kind, a: pair.0, b: pair.1) }
        }
        return .primaryKey
    }

    /// The key members `names` stand for in `entity` (of B's model when `onB`): attributes, `relationship.attribute`
    /// paths, and to-one relationships (the related object's key). Nil when a name stands for none; with `strict`,
    /// an unknown name is an error instead.
    private func members(_ names: [String], of entity: Entity, onB: Bool, old: Entity?, following: Bool,
                         strict: Bool = false) throws -> [KeyMember]? {
        let store = onB ? b : a
        let attributes = stored(entity, store)
        var members: [KeyMember] = []
        for name in names {
            if let attribute = attributes.first(where: { $0.name == name }) {
                members.append(KeyMember(path: name, attribute: attribute))
                continue
            }
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            if let relationship = store.model.relationship(parts[0], of: entity), !relationship.isToMany, !relationship.isTransient,
               let destination = store.model.entity(named: relationship.destination) {
                if parts.count == 2, let attribute = stored(destination, store).first(where: { $0.name == parts[1] }) {
                    members.append(KeyMember(path: name, attribute: attribute))
                    continue
                }
                if parts.count == 1 && following {
                    let related = onB ? try key(old == nil ? nil : matcher.sourceEntity(for: destination), destination, following: false).b
                        : try key(destination, nil, following: false).a
                    if !related.isEmpty {
                        members += related.map { KeyMember(path: relationship.name + "." + $0.path, attribute: $0.attribute) }
                        continue
                    }
                }
            }
            guard strict else { return nil }
            throw StoreError(.unknownName, "no attribute '\(name)' (nor a to-one relationship whose object has a key)"
                             + Suggestion.didYouMean(name, among: attributes.map(\.name)), entity: entity.name).about(.matchKeys)
        }
        return members.isEmpty ? nil : members
    }

    /// The key members of the shown side (B's when it has the entity) with their A counterparts: (A's, B's).
    /// Nil when a member cannot key objects or has no counterpart stored alike.
    private func counterparts(_ members: [KeyMember], _ old: Entity?, _ new: Entity?) -> ([KeyMember], [KeyMember])? {
        guard members.allSatisfy({ Self.storageClass($0.attribute.type) != nil }) else { return nil }
        guard let new else { return (members, []) }
        guard let old else { return ([], members) }
        var previous: [KeyMember] = []
        for member in members {
            let parts = member.path.split(separator: ".", maxSplits: 1).map(String.init)
            var owner = old
            var prefix = ""
            if parts.count == 2 {
                guard let relationship = b.model.relationship(parts[0], of: new),
                      let match = matcher.sourceRelationship(for: relationship, in: old), !match.isToMany,
                      let destination = a.model.entity(named: match.destination) else { return nil }
                owner = destination
                prefix = match.name + "."
            }
            guard let attribute = matcher.sourceAttribute(for: member.attribute, in: owner),
                  a.layout.entity(named: owner.name)?.attributeColumns[attribute.name] != nil,
                  Self.storageClass(attribute.type) == Self.storageClass(member.attribute.type) else { return nil }
            previous.append(KeyMember(path: prefix + attribute.name, attribute: attribute))
        }
        return (previous, members)
    }

    /// How SQLite stores the values of `type`, for the types whose stored values can key objects: values of one
    /// class compare alike in both stores and sort alike in SQL and in ``StoredBytes/compare(_:_:)``.
    static func storageClass(_ type: AttributeType) -> Int? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: 1
        case .double, .float, .decimal, .date: 2
        case .string, .uri: 3
        case .uuid: 4
        default: nil
        }
    }
}
