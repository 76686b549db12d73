import CDStoreModel
import SwiftSyntax

/// Turns collected `@Model` classes into entities as SwiftData does: one entity per class, named by the
/// unqualified class name; stored properties become attributes or relationships; relationship inverses are
/// inferred where both sides are unambiguous.
struct SwiftModelBuilder {
    let declarations: SwiftDeclarations
    var warnings: [String] = []
    var sourceMap = ModelSourceMap()

    init(_ declarations: SwiftDeclarations) {
        self.declarations = declarations
    }

    // MARK: Name lookup

    /// The `@Model` class `written` names, seen from inside `scope` (an alias followed, then innermost scopes
    /// first, then any class whose qualified name ends with it).
    func findClass(_ written: String, from scope: [String]) throws -> SwiftModelClass? {
        try lookup(written, from: scope, in: declarations.classes, qualifiedName: \.qualifiedName, kind: "@Model class")
    }

    func valueType(_ written: String, from scope: [String]) throws -> SwiftValueType? {
        try lookup(written, from: scope, in: declarations.valueTypes, qualifiedName: \.qualifiedName, kind: "type")
    }

    func lookup<T>(_ written: String, from scope: [String], in candidates: [T], qualifiedName: KeyPath<T, String>,
                   kind: String) throws -> T? {
        // `Self.Pin` in a versioned schema's `models` is its own `Pin`, which the lookup from inside it finds first.
        if written.hasPrefix("Self.") {
            return try lookup(String(written.dropFirst(5)), from: scope, in: candidates, qualifiedName: qualifiedName,
                              kind: kind)
        }
        let resolved = resolvingAliases(.named(written, []), from: scope)
        if resolved != .named(written, []) {
            guard case .named(let target, []) = resolved else { return nil }
            return try lookupDeclared(target, from: [], in: candidates, qualifiedName: qualifiedName, kind: kind)
        }
        return try lookupDeclared(written, from: scope, in: candidates, qualifiedName: qualifiedName, kind: kind)
    }

    /// `lookup` among the declared types only, aliases not followed.
    func lookupDeclared<T>(_ written: String, from scope: [String], in candidates: [T],
                           qualifiedName: KeyPath<T, String>, kind: String) throws -> T? {
        for depth in stride(from: scope.count, through: 0, by: -1) {
            let name = (scope.prefix(depth) + [written]).joined(separator: ".")
            if let exact = candidates.first(where: { $0[keyPath: qualifiedName] == name }) { return exact }
        }
        let matches = candidates.filter { $0[keyPath: qualifiedName].hasSuffix("." + written) }
        if matches.count > 1 {
            let names = matches.map { "'\($0[keyPath: qualifiedName])'" }.joined(separator: ", ")
            throw ModelError(.unsupportedSwiftType, "the \(kind) '\(written)' is ambiguous: it may be \(names)")
        }
        return matches.first
    }

    // MARK: Entities

    /// The entities of `classes` (already chosen and complete: every relationship destination is among them).
    mutating func build(_ classes: [SwiftModelClass], versionIdentifier: String) throws -> ManagedObjectModel {
        var entities: [Entity] = []
        var declaredInverses: [(property: SwiftPropertyDeclaration, entity: String, inverse: (entity: String, name: String))] = []
        for modelClass in classes {
            if let clash = entities.first(where: { $0.name == modelClass.name }) {
                throw ModelError(.unsupportedSwiftType,
                                 "two @Model classes give the entity name '\(clash.name)' (SwiftData names an entity "
                                 + "by the unqualified class name)", file: modelClass.location.file,
                                 line: modelClass.location.line, column: modelClass.location.column)
            }
            var entity = Entity(name: modelClass.name)
            if let parent = modelClass.superclass, let parentClass = try findClass(parent, from: modelClass.scope) {
                entity.parentName = parentClass.name
            }
            sourceMap.entities[entity.name] = .init(line: modelClass.location.line, column: modelClass.location.column,
                                                    file: modelClass.location.file)
            for property in modelClass.properties {
                sourceMap.properties["\(entity.name).\(property.name)"] =
                    .init(line: property.location.line, column: property.location.column, file: property.location.file)
                let inverse = try addProperty(property, of: modelClass, to: &entity)
                if let inverse { declaredInverses.append((property, entity.name, inverse)) }
            }
            try applyMacros(modelClass, to: &entity)
            entities.append(entity)
        }
        // SwiftData puts every entity in one configuration named after its `ModelConfiguration`, "default" (the
        // model cached in a real SwiftData store has it; it is how a store tells SwiftData wrote it).
        var model = ManagedObjectModel(entities: entities, versionIdentifiers: [versionIdentifier], fetchRequests: [],
                                       configurations: [Configuration(name: "default", entities: entities.map(\.name))],
                                       fileSettings: ["sourceLanguage": "Swift", "usedWithSwiftData": "YES"])
        for declared in declaredInverses {
            try checkInverse(declared.property, of: declared.entity, names: declared.inverse, in: model)
        }
        SwiftInverseInference.link(&model, explicit: declaredInverses.map { ($0.entity, $0.property.name, $0.inverse) })
        return model
    }

    /// Adds one stored property; returns the inverse an `@Relationship(inverse: \Other.name)` names.
    private mutating func addProperty(_ property: SwiftPropertyDeclaration, of modelClass: SwiftModelClass,
                                      to entity: inout Entity) throws -> (entity: String, name: String)? {
        guard let written = property.type else {
            throw error("cannot tell the type of '\(property.name)': give it a type annotation", property, entity.name)
        }
        // Inside the class body its own nested types come first (`Animal.Diet` before `Plant.Diet`).
        let scope = modelClass.scope + [modelClass.name]
        let type = resolvingAliases(written, from: scope)
        let (base, isOptional) = type.unwrapped
        var destinationType: SwiftTypeReference?
        var isToMany = false
        switch base {
        case .array(let element), .set(let element):
            if case .named(let name, []) = element.unwrapped.type, try findClass(name, from: scope) != nil {
                destinationType = element.unwrapped.type
                isToMany = true
            }
        case .named(let name, []):
            if try findClass(name, from: scope) != nil { destinationType = base }
        default: break
        }
        if case .named(let name, _)? = destinationType, let destination = try findClass(name, from: scope) {
            var relationship = Relationship(name: property.name, destination: destination.name, isToMany: isToMany)
            relationship.isOptional = isOptional
            relationship.maxCount = isToMany ? 0 : 1
            let inverse = try SwiftPropertyOptions.applyRelationship(property.relationship, to: &relationship,
                                                                     from: scope, builder: self)
            if property.attribute != nil {
                warnings.append(place(property) + "@Attribute on relationship '\(property.name)' is ignored")
            }
            entity.relationships.append(relationship)
            return inverse
        }
        if property.relationship != nil {
            throw error("@Relationship on '\(property.name)', whose type '\(type)' is not a @Model class or an array "
                        + "of one", property, entity.name, isRelationship: true)
        }
        var attribute: Attribute
        do {
            if SwiftPropertyOptions.declares("codable", in: property.attribute) {
                throw error("@Attribute(.codable) on '\(property.name)': SwiftData keeps such a value in its encoded form, "
                            + "in a column no real store has shown cdstore; without the option the type's stored "
                            + "properties are columns cdstore can map", property, entity.name)
            }
            if SwiftPropertyOptions.declaresTransformable(property.attribute) {
                // `.transformable(by:)` stores any class its transformer archives (`NSObject`, `UIColor`, …):
                // the type is only the value's class, never mapped to columns.
                attribute = Attribute(name: property.name, type: .transformable, isOptional: isOptional)
                if case .named(let name, []) = base, name != "NSObject" { attribute.customClassName = name }
            } else {
                attribute = try SwiftAttributeMapping(builder: self).attribute(property.name, type: type, scope: scope)
            }
        } catch let problem as SwiftAttributeMapping.Problem {
            let who = problem.isCDStoreLimit ? "cdstore cannot map to columns" : "SwiftData cannot store"
            throw error("'\(property.name)' has type '\(problem.type)', which \(who): \(problem.why)", property, entity.name)
        }
        let options = try SwiftPropertyOptions.applyAttribute(property.attribute, to: &attribute)
        if options.isUnique { entity.uniquenessConstraints.append([property.name]) }
        if let initializer = property.initializer, attribute.type != .composite {
            attribute.defaultValue = SwiftPropertyOptions.literalDefault(initializer, type: attribute.type)
        }
        entity.attributes.append(attribute)
        return nil
    }

    /// `@Relationship(inverse: \Other.name)` must name a relationship of `Other` that points back at this entity
    /// (or an entity it inherits from): linking one that points elsewhere would make every write of either side
    /// store keys of the wrong entity.
    private func checkInverse(_ property: SwiftPropertyDeclaration, of entityName: String,
                              names inverse: (entity: String, name: String), in model: ManagedObjectModel) throws {
        guard let other = model.entity(named: inverse.entity) else { return }
        guard let back = model.relationship(inverse.name, of: other) else {
            throw error("@Relationship(inverse: \\\(inverse.entity).\(inverse.name)) on '\(property.name)' names no "
                        + "relationship of '\(inverse.entity)'", property, entityName, isRelationship: true)
        }
        guard let entity = model.entity(named: entityName) else { return }
        let accepted = Set(([entity] + model.ancestors(of: entity) + model.subtree(of: entity)).map(\.name))
        guard accepted.contains(back.destination) else {
            throw error("@Relationship(inverse: \\\(inverse.entity).\(inverse.name)) on '\(property.name)' names a "
                        + "relationship to '\(back.destination)', not to '\(entityName)': the inverse must point back",
                        property, entityName, isRelationship: true)
        }
    }

    /// What SwiftData puts before the property names in an `#Index` fetch index's name.
    static let indexPrefix = "SwiftDataIndexOnBinary"

    /// `#Unique<T>([\.a, \.b], [\.c])` and `#Index<T>([\.a], …)` in the class body.
    private func applyMacros(_ modelClass: SwiftModelClass, to entity: inout Entity) throws {
        for macro in modelClass.macros {
            var groups: [[String]] = []
            for argument in macro.arguments {
                let paths = SwiftPropertyOptions.keyPaths(argument.expression)
                if !paths.isEmpty { groups.append(paths) }
            }
            let names = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
            for group in groups {
                if let unknown = group.first(where: { !names.contains($0) }) {
                    let where_ = location(macro, in: modelClass)
                    throw ModelError(.unsupportedSwiftType,
                                     "#\(macro.macroName.text) names '\(unknown)', which is not a stored property",
                                     file: where_.file, line: where_.line, column: where_.column, entity: entity.name)
                }
                if macro.macroName.text == "Unique" {
                    if !entity.uniquenessConstraints.contains(group) { entity.uniquenessConstraints.append(group) }
                } else {
                    // SwiftData names each key-path list's fetch index `SwiftDataIndexOnBinary` + the property
                    // names run together (`Z_Recipe_SwiftDataIndexOnBinarytitlebookName` in SQL), as a real
                    // SwiftData store with the app's sources shows (coredata-format.md §1.8).
                    entity.fetchIndexes.append(FetchIndex(name: Self.indexPrefix + group.joined(),
                                                          elements: group.map { .init(property: $0) }))
                }
            }
        }
    }

    private func location(_ node: some SyntaxProtocol, in modelClass: SwiftModelClass) -> SwiftSourceLocation {
        // Macros are reported at their class: the converter of their file is not kept.
        modelClass.location
    }

    private func place(_ property: SwiftPropertyDeclaration) -> String {
        "\(property.location.file):\(property.location.line):\(property.location.column): "
    }

    private func error(_ message: String, _ property: SwiftPropertyDeclaration, _ entity: String,
                       isRelationship: Bool = false) -> ModelError {
        var error = ModelError(.unsupportedSwiftType, message, file: property.location.file, line: property.location.line,
                               column: property.location.column, entity: entity, property: property.name)
        error.isRelationship = isRelationship
        return error
    }
}
