import Foundation

/// Checks a model for everything Xcode or Core Data would refuse, and for likely mistakes, and reports
/// every problem at once.
///
/// ```swift
/// let loaded = try ModelLoader.load("Model.xcdatamodeld")
/// for issue in ModelValidator.validate(loaded) { print(issue) }
/// ```
///
/// Rules (errors unless noted): empty names; duplicate entity names; unknown or cyclic parent entities;
/// a property declared twice in an entity or redeclaring an inherited one; reserved property names
/// (``ReservedNames``); defaults out of range for an integer type (error) or not parseable for their type
/// (warning: Xcode accepts them and Core Data converts silently, e.g. `YES` on an Integer 32 in a real
/// model); minimum greater than maximum; unparseable limits (warning); invalid regular expressions;
/// unknown relationship destinations; inverses that do not exist; inverses that do not point back
/// (warning: Xcode accepts them, a real model has one); a to-one with
/// `minCount` above 1 and `minCount` above `maxCount`; uniqueness constraints, fetch indexes and compound
/// indexes naming unknown properties; fetch requests and configurations naming unknown entities.
///
/// Every model of the shared corpus, all accepted by Xcode, validates with no errors.
///
/// Core Data equivalent: the checks Xcode's model editor and `momc` run before compiling a model.
package enum ModelValidator {
    /// All problems of `loaded`, in model order (model-level issues first, then entity by entity).
    package static func validate(_ loaded: LoadedModel) -> [ModelIssue] {
        var context = Context(loaded: loaded)
        context.checkEntities()
        for entity in loaded.model.entities { context.check(entity) }
        context.checkModelReferences()
        return context.issues
    }

    /// Errors only: whether Core Data could use the model.
    package static func errors(in loaded: LoadedModel) -> [ModelIssue] {
        validate(loaded).filter { $0.severity == .error }
    }

    /// Collects issues with their locations.
    struct Context {
        let loaded: LoadedModel
        var model: ManagedObjectModel { loaded.model }
        var issues: [ModelIssue] = []

        init(loaded: LoadedModel) { self.loaded = loaded }

        mutating func report(_ severity: ModelIssue.Severity, _ rule: ModelIssue.Rule, _ message: String,
                             entity: String? = nil, property: String? = nil) {
            let location = entity.flatMap { loaded.sourceMap.location(entity: $0, property: property) }
            issues.append(ModelIssue(severity, rule, message, file: location?.file ?? loaded.file.relativePath, line: location?.line,
                                     column: location?.column, entity: entity, property: property))
        }

        /// Names, duplicates and the inheritance tree.
        mutating func checkEntities() {
            var seen: Set<String> = []
            var reportedCycles: Set<String> = []
            for entity in model.entities {
                if let problem = NameRules.problem(entityName: entity.name) {
                    report(.error, .invalidName, problem, entity: entity.name)
                }
                if entity.name.isEmpty {
                    report(.error, .emptyName, "an entity has an empty name")
                } else if !seen.insert(entity.name).inserted {
                    report(.error, .duplicateEntity, "another entity has the same name", entity: entity.name)
                }
                guard let parentName = entity.parentName else { continue }
                if model.entity(named: parentName) == nil {
                    report(.error, .unknownParent, "parent entity '\(parentName)' does not exist", entity: entity.name)
                } else if let cycle = inheritanceCycle(from: entity), reportedCycles.isDisjoint(with: cycle) {
                    reportedCycles.formUnion(cycle)
                    report(.error, .inheritanceCycle, "inheritance cycle: "
                           + (cycle + [cycle[0]]).joined(separator: " → "), entity: entity.name)
                }
            }
        }

        /// The entities of the cycle `entity` is part of, starting with it, or nil.
        func inheritanceCycle(from entity: Entity) -> [String]? {
            var chain = [entity.name]
            var current = model.parent(of: entity)
            while let next = current {
                if next.name == entity.name { return chain }
                if chain.contains(next.name) { return nil }  // a cycle above, reported from its own members
                chain.append(next.name)
                current = model.parent(of: next)
            }
            return nil
        }

        mutating func check(_ entity: Entity) {
            checkPropertyNames(entity)
            for attribute in entity.attributes { check(attribute, of: entity) }
            for relationship in entity.relationships { check(relationship, of: entity) }
            checkPropertyLists(entity)
        }

        /// Empty, duplicate, inherited-again and reserved property names.
        mutating func checkPropertyNames(_ entity: Entity) {
            let inherited = Dictionary(model.ancestors(of: entity).reversed().flatMap { ancestor in
                propertyNames(of: ancestor).map { ($0, ancestor.name) }
            }, uniquingKeysWith: { first, _ in first })
            var seen: Set<String> = []
            for name in propertyNames(of: entity) {
                if name.isEmpty {
                    report(.error, .emptyName, "a property has an empty name", entity: entity.name)
                    continue
                }
                if let problem = NameRules.problem(propertyName: name) {
                    report(.error, .invalidName, problem, entity: entity.name, property: name)
                }
                if !seen.insert(name).inserted {
                    report(.error, .duplicateProperty, "property '\(name)' is declared more than once",
                           entity: entity.name, property: name)
                } else if let owner = inherited[name] {
                    report(.error, .duplicateProperty, "property '\(name)' is already declared by parent entity '\(owner)'",
                           entity: entity.name, property: name)
                }
                if let owner = ReservedNames.all[name] {
                    report(.error, .reservedName, "'\(name)' is a reserved name (it would replace \(owner).\(name))",
                           entity: entity.name, property: name)
                }
            }
        }

        func propertyNames(of entity: Entity) -> [String] {
            entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
        }

        /// Whether `entity` has a property called `name`, its own or inherited.
        func hasProperty(_ name: String, _ entity: Entity) -> Bool {
            ([entity] + model.ancestors(of: entity)).contains { propertyNames(of: $0).contains(name) }
        }

        /// Uniqueness constraints, fetch indexes and compound indexes must name existing properties.
        mutating func checkPropertyLists(_ entity: Entity) {
            for constraint in entity.uniquenessConstraints {
                for name in constraint where !hasProperty(name, entity) {
                    report(.error, .unknownPropertyInConstraint,
                           "uniqueness constraint [\(constraint.joined(separator: ", "))] names unknown property '\(name)'",
                           entity: entity.name)
                }
            }
            for index in entity.fetchIndexes {
                for element in index.elements {
                    guard let name = element.property, !hasProperty(name, entity) else { continue }
                    report(.error, .unknownPropertyInIndex, "fetch index '\(index.name)' names unknown property '\(name)'",
                           entity: entity.name)
                }
            }
            for index in entity.compoundIndexes {
                for name in index where !hasProperty(name, entity) {
                    report(.error, .unknownPropertyInIndex,
                           "compound index [\(index.joined(separator: ", "))] names unknown property '\(name)'",
                           entity: entity.name)
                }
            }
        }

        /// Fetch request templates, fetched properties and configurations must name existing entities.
        mutating func checkModelReferences() {
            for request in model.fetchRequests where model.entity(named: request.entity) == nil {
                report(.error, .unknownEntityReference,
                       "fetch request '\(request.name)' fetches unknown entity '\(request.entity)'")
            }
            for entity in model.entities {
                for property in entity.fetchedProperties
                where model.entity(named: property.fetchRequest.entity) == nil {
                    report(.error, .unknownEntityReference,
                           "fetched property fetches unknown entity '\(property.fetchRequest.entity)'",
                           entity: entity.name, property: property.name)
                }
            }
            for configuration in model.configurations {
                for member in configuration.entities where model.entity(named: member) == nil {
                    report(.error, .unknownEntityReference,
                           "configuration '\(configuration.name)' names unknown entity '\(member)'")
                }
            }
        }
    }
}
