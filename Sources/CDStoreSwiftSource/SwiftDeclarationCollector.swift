import CDStoreModel
import SwiftSyntax

/// Walks one parsed file and collects the declarations SwiftData's schema is made of: `@Model` classes, the
/// structs and enums their properties may use, versioned schemas, migration plans and schema literals.
/// Everything else in the file is ignored; nothing is evaluated.
final class SwiftDeclarationCollector: SyntaxVisitor {
    private let file: String
    private let converter: SourceLocationConverter
    private(set) var found = SwiftDeclarations()
    /// Enclosing type names (an extension contributes the type it extends).
    private var scope: [String] = []
    /// Enclosing declarations of any kind (types, functions, variables), innermost last, for naming literals.
    private var owners: [String] = []

    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ node: some SyntaxProtocol) -> SwiftSourceLocation {
        let place = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SwiftSourceLocation(file: file, line: place.line, column: place.column)
    }

    private func qualified(_ name: String) -> String { (scope + [name]).joined(separator: ".") }

    // MARK: Types

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        if Self.hasAttribute(node.attributes, named: "Model") {
            let inherited = Self.inheritedNames(node.inheritanceClause)
            found.classes.append(SwiftModelClass(
                name: name, qualifiedName: qualified(name), scope: scope, superclass: inherited.first,
                properties: storedCandidates(node.memberBlock.members),
                macros: macros(node.memberBlock.members), location: location(node.name)))
        } else {
            found.valueTypes.append(SwiftValueType(
                kind: .plainClass, name: name, qualifiedName: qualified(name), scope: scope,
                inherited: Self.inheritedNames(node.inheritanceClause),
                properties: storedCandidates(node.memberBlock.members), cases: [], location: location(node.name)))
        }
        enter(name)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { leave() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        let inherited = Self.inheritedNames(node.inheritanceClause)
        if inherited.contains("VersionedSchema") {
            found.versionedSchemas.append(versionedSchema(name, members: node.memberBlock, at: node.name))
        } else if inherited.contains("SchemaMigrationPlan") {
            found.migrationPlans.append(migrationPlan(name, members: node.memberBlock))
        }
        found.valueTypes.append(SwiftValueType(
            kind: .structure, name: name, qualifiedName: qualified(name), scope: scope, inherited: inherited,
            properties: storedCandidates(node.memberBlock.members), cases: [], location: location(node.name)))
        enter(name)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { leave() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        let inherited = Self.inheritedNames(node.inheritanceClause)
        if inherited.contains("VersionedSchema") {
            found.versionedSchemas.append(versionedSchema(name, members: node.memberBlock, at: node.name))
        } else if inherited.contains("SchemaMigrationPlan") {
            found.migrationPlans.append(migrationPlan(name, members: node.memberBlock))
        }
        var cases: [(String, Bool)] = []
        for member in Self.flatMembers(node.memberBlock.members) {
            guard let caseDecl = member.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                cases.append((element.name.text, element.parameterClause != nil))
            }
        }
        found.valueTypes.append(SwiftValueType(
            kind: .enumeration, name: name, qualifiedName: qualified(name), scope: scope, inherited: inherited,
            properties: [], cases: cases, location: location(node.name)))
        enter(name)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { leave() }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        // A generic alias (`typealias Pair<T> = …`) would need its arguments substituted; none is followed.
        if node.genericParameterClause == nil {
            let name = node.name.text
            found.typeAliases.append(SwiftTypeAlias(name: name, qualifiedName: qualified(name), scope: scope,
                                                    target: SwiftTypeReference(node.initializer.value)))
        }
        return .skipChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let extended = SwiftTypeReference(node.extendedType).description
        let inherited = Self.inheritedNames(node.inheritanceClause)
        if !inherited.isEmpty { found.extensionConformances[extended, default: []] += inherited }
        if inherited.contains("VersionedSchema") {
            found.versionedSchemas.append(versionedSchema(extended, members: node.memberBlock, at: node.extendedType))
        }
        // `extension DataV1 { @Model class User … }` nests User in DataV1.
        scope.append(contentsOf: extended.split(separator: ".").map(String.init))
        owners.append(extended)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) {
        let extended = SwiftTypeReference(node.extendedType).description
        scope.removeLast(min(scope.count, extended.split(separator: ".").count))
        owners.removeLast()
    }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        found.protocols[node.name.text] = Self.inheritedNames(node.inheritanceClause)
        enter(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: ProtocolDeclSyntax) { leave() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text); return .visitChildren }
    override func visitPost(_ node: ActorDeclSyntax) { leave() }

    private func enter(_ name: String) { scope.append(name); owners.append(name) }
    private func leave() { scope.removeLast(); owners.removeLast() }

    // MARK: Literals

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        owners.append(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { owners.removeLast() }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? "_"
        owners.append(name)
        return .visitChildren
    }
    override func visitPost(_ node: VariableDeclSyntax) { owners.removeLast() }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let literal = schemaLiteral(node) { found.schemaLiterals.append(literal) }
        return .visitChildren
    }

    private func schemaLiteral(_ call: FunctionCallExprSyntax) -> SwiftSchemaLiteral? {
        let callee = call.calledExpression.trimmedDescription
        let arguments = Array(call.arguments)
        let name = owners.last ?? file
        switch callee {
        case "Schema", "SwiftData.Schema":
            if let first = arguments.first, first.label?.text == "versionedSchema" {
                guard let schema = Self.selfReference(first.expression) else { return nil }
                return SwiftSchemaLiteral(name: name, scope: scope, models: [], versionedSchema: schema,
                                          location: location(call))
            }
            guard let first = arguments.first, first.label == nil else { return nil }
            let models = Self.selfReferences(first.expression)
            guard !models.isEmpty else { return nil }
            return SwiftSchemaLiteral(name: name, scope: scope, models: models, versionedSchema: nil,
                                      location: location(call))
        case "ModelContainer", "SwiftData.ModelContainer", ".modelContainer":
            return containerLiteral(arguments, name: name, at: call)
        default:
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               member.declName.baseName.text == "modelContainer" {
                return containerLiteral(arguments, name: name, at: call)
            }
            return nil
        }
    }

    /// `ModelContainer(for: A.self, B.self, …)`: the `for:` argument and the unlabeled ones after it.
    private func containerLiteral(_ arguments: [LabeledExprSyntax], name: String,
                                  at call: FunctionCallExprSyntax) -> SwiftSchemaLiteral? {
        guard let start = arguments.firstIndex(where: { $0.label?.text == "for" }) else { return nil }
        var models: [String] = []
        for (offset, argument) in arguments[start...].enumerated() {
            if offset > 0, argument.label != nil { break }
            models += Self.selfReferences(argument.expression)
        }
        guard !models.isEmpty else { return nil }
        return SwiftSchemaLiteral(name: name, scope: scope, models: models, versionedSchema: nil,
                                  location: location(call), kind: "ModelContainer")
    }

    // MARK: Schemas and plans

    private func versionedSchema(_ name: String, members: MemberBlockSyntax,
                                 at node: some SyntaxProtocol) -> SwiftVersionedSchema {
        var identifier: String?
        var models: [String] = []
        for member in Self.flatMembers(members.members) {
            guard let variable = member.as(VariableDeclSyntax.self),
                  let binding = variable.bindings.first,
                  let propertyName = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if propertyName == "versionIdentifier" {
                identifier = Self.versionNumber(in: Syntax(variable))
            } else if propertyName == "models" {
                models = Self.selfReferences(Syntax(variable))
            }
        }
        return SwiftVersionedSchema(name: name, qualifiedName: qualified(name), scope: scope,
                                    identifier: identifier, models: models, location: location(node))
    }

    private func migrationPlan(_ name: String, members: MemberBlockSyntax) -> SwiftMigrationPlan {
        var plan = SwiftMigrationPlan(name: name, scope: scope + [name], schemas: [], stages: [])
        for member in Self.flatMembers(members.members) {
            guard let variable = member.as(VariableDeclSyntax.self) else { continue }
            let propertyName = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            if propertyName == "schemas" { plan.schemas = Self.selfReferences(Syntax(variable)) }
            for call in Self.calls(in: Syntax(variable)) {
                let callee = call.calledExpression.trimmedDescription
                guard callee.hasSuffix("lightweight") || callee.hasSuffix("custom") else { continue }
                let from = call.arguments.first { $0.label?.text == "fromVersion" }.flatMap { Self.selfReference($0.expression) }
                let to = call.arguments.first { $0.label?.text == "toVersion" }.flatMap { Self.selfReference($0.expression) }
                guard let from, let to else { continue }
                plan.stages.append(.init(isLightweight: callee.hasSuffix("lightweight"), from: from, to: to,
                                         location: location(call), name: propertyName == "stages" ? nil : propertyName))
            }
        }
        return plan
    }
}
