/// What a model says that SwiftData `@Model` classes cannot: one sentence each, naming the entity and property,
/// and whether the entity's version hash changes (read back, the classes give a different model there).
struct SwiftDataLosses {
    let model: ManagedObjectModel

    func all() -> [String] {
        var losses: [String] = []
        for configuration in model.configurations where !["default", "Default", "PF_DEFAULT_CONFIGURATION_NAME"].contains(configuration.name) {
            losses.append("configuration '\(configuration.name)' (\(configuration.entities.joined(separator: ", "))): "
                          + "SwiftData models have no configurations; give each store a ModelConfiguration instead")
        }
        for request in model.fetchRequests {
            losses.append("fetch request '\(request.name)' (entity '\(request.entity)'): SwiftData models keep no fetch "
                          + "requests; write a FetchDescriptor")
        }
        for entity in model.entities { losses += entityLosses(entity) }
        losses += inverseLosses()
        return losses + inheritedHashLosses(losses)
    }

    /// A sub-entity's version hash takes in its parent's: for each entity below one whose hash changes, a line
    /// saying its own changes too.
    private func inheritedHashLosses(_ losses: [String]) -> [String] {
        let changed = Set(model.entities.map(\.name).filter { name in
            losses.contains { $0.hasPrefix("entity '\(name)'") && $0.hasSuffix("(the version hash changes)") }
        })
        return model.entities.compactMap { entity in
            guard !changed.contains(entity.name),
                  let ancestor = model.ancestors(of: entity).first(where: { changed.contains($0.name) }) else { return nil }
            return "entity '\(entity.name)': below '\(ancestor.name)', whose version hash changes, so its own does "
                + "(the version hash changes)"
        }
    }

    private func entityLosses(_ entity: Entity) -> [String] {
        let subject = "entity '\(entity.name)'"
        var losses: [String] = []
        if entity.isAbstract {
            losses.append("\(subject): abstract; SwiftData classes are concrete (the version hash changes)")
        }
        if let className = entity.className, !className.isEmpty, className != "NSManagedObject",
           CodeNames.className(entity) != entity.name {
            losses.append("\(subject): class '\(className)'; SwiftData names the entity after its class, so the class "
                          + "is called '\(entity.name)'")
        }
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            losses.append("\(subject): version hash modifier '\(modifier)'; @Model has none (the version hash changes)")
        }
        if entity.spotlightDisplayNameExpression != nil {
            losses.append("\(subject): Spotlight display name expression; SwiftData has none")
        }
        if !entity.userInfo.isEmpty {
            losses.append("\(subject): user info (\(entity.userInfo.keys.sorted().joined(separator: ", "))); SwiftData has none")
        }
        for index in entity.fetchIndexes {
            var what: [String] = []
            if index.elements.contains(where: { $0.property == nil }) { what.append("expression elements") }
            if index.elements.contains(where: { !$0.isAscending }) { what.append("descending order") }
            if index.elements.contains(where: { $0.type.lowercased() == "rtree" }) { what.append("an R-tree") }
            if index.partialIndexPredicate != nil { what.append("a partial-index predicate") }
            if !what.isEmpty {
                losses.append("\(subject), fetch index '\(index.name)': \(what.joined(separator: ", ")); #Index cannot say it")
            }
        }
        for fetched in entity.fetchedProperties {
            losses.append("\(subject), fetched property '\(fetched.name)': SwiftData has no fetched properties (left out)")
        }
        for attribute in entity.attributes { losses += attributeLosses(attribute, subject: subject) }
        for relationship in entity.relationships {
            let place = "\(subject), relationship '\(relationship.name)'"
            if relationship.isOrdered {
                losses.append("\(place): ordered; SwiftData arrays keep no order (the version hash changes)")
            }
            if relationship.isTransient {
                losses.append("\(place): transient; SwiftData has no transient relationships (left out)")
            }
            if !relationship.isToMany && relationship.minCount != 0 {
                // The count enters the version hash; a to-one property reads back with none.
                losses.append("\(place): minimum count \(relationship.minCount) on a to-one; SwiftData cannot say it "
                              + "(the version hash changes)")
            }
            if !relationship.isToMany && relationship.maxCount != 1 {
                losses.append("\(place): maximum count \(relationship.maxCount) on a to-one; a SwiftData to-one has 1 "
                              + "(the version hash changes)")
            }
            if !relationship.userInfo.isEmpty {
                losses.append("\(place): user info (\(relationship.userInfo.keys.sorted().joined(separator: ", "))); SwiftData has none")
            }
        }
        return losses
    }

    private func attributeLosses(_ attribute: Attribute, subject: String) -> [String] {
        let place = "\(subject), attribute '\(attribute.name)'"
        var losses: [String] = []
        switch attribute.type {
        case .undefined, .objectID:
            losses.append("\(place): type \(attribute.type.rawValue) has no SwiftData type (left out)")
        case .transformable:
            if let custom = XcodeTypes.customClass(attribute) {
                losses.append("\(place): Transformable of custom class '\(custom)'; the class is only named as the "
                              + "property's type: the app must declare it (NSObject & NSSecureCoding) and its transformer")
            }
        case .composite:
            losses.append("\(place): composite '\(attribute.compositeName ?? "")'; declare it as a Codable struct of that name")
        default:
            break
        }
        if let expression = attribute.derivationExpression {
            losses.append("\(place): derived (\(expression)); SwiftData has no derived attributes, so it is stored "
                          + "(the version hash changes)")
        }
        var rules: [String] = []
        if let min = attribute.minValue { rules.append("minimum \(min)") }
        if let max = attribute.maxValue { rules.append("maximum \(max)") }
        if attribute.minDateTimeInterval != nil { rules.append("earliest date") }
        if attribute.maxDateTimeInterval != nil { rules.append("latest date") }
        if let pattern = attribute.regularExpression { rules.append("pattern \(pattern)") }
        if !rules.isEmpty {
            losses.append("\(place): \(rules.joined(separator: ", ")); SwiftData has no validation rules")
        }
        if attribute.isStoredInExternalRecord {
            losses.append("\(place): stored in the external record; SwiftData cannot say it")
        }
        if !attribute.userInfo.isEmpty {
            losses.append("\(place): user info (\(attribute.userInfo.keys.sorted().joined(separator: ", "))); SwiftData has none")
        }
        return losses
    }
}
