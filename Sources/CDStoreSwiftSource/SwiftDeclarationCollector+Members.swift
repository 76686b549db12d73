import CDStoreModel
import SwiftSyntax

/// Reading members: stored properties, macros, `X.self` references and version numbers.
extension SwiftDeclarationCollector {
    /// Whether `attributes` holds `@name` (or `@SwiftData.name`).
    static func hasAttribute(_ attributes: AttributeListSyntax, named name: String) -> Bool {
        attribute(attributes, named: name) != nil
    }

    static func attribute(_ attributes: AttributeListSyntax, named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let written = SwiftTypeReference(attribute.attributeName).description
            if written == name || written == "SwiftData." + name { return attribute }
        }
        return nil
    }

    static func inheritedNames(_ clause: InheritanceClauseSyntax?) -> [String] {
        (clause?.inheritedTypes ?? []).map { inherited in
            let type = SwiftTypeReference(inherited.type)
            if case .named(let name, _) = type { return name }
            return type.description
        }
    }

    /// Members, with those of every `#if` clause taken in (a model file is often wrapped in
    /// `#if canImport(SwiftData)`; cdstore cannot know which clause a build takes, so it reads them all and
    /// keeps the first declaration of each name).
    static func flatMembers(_ members: MemberBlockItemListSyntax) -> [DeclSyntax] {
        var result: [DeclSyntax] = []
        for member in members {
            if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                for clause in conditional.clauses {
                    if case .decls(let inner)? = clause.elements { result += flatMembers(inner) }
                }
            } else {
                result.append(member.decl)
            }
        }
        return result
    }

    /// The properties that may be stored: instance `var`s and `let`s without getters, not `@Transient`.
    func storedCandidates(_ members: MemberBlockItemListSyntax) -> [SwiftPropertyDeclaration] {
        var properties: [SwiftPropertyDeclaration] = []
        var seen: Set<String> = []
        for member in Self.flatMembers(members) {
            guard let variable = member.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }),
                  !Self.hasAttribute(variable.attributes, named: "Transient") else { continue }
            var sharedType: TypeSyntax?
            // In `var a, b: Int` the later annotation types the earlier names.
            for binding in variable.bindings.reversed() {
                if let annotation = binding.typeAnnotation { sharedType = annotation.type }
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
                      !Self.isComputed(binding) else { continue }
                let name = identifier.identifier.text
                guard seen.insert(name).inserted else { continue }
                let type = (binding.typeAnnotation?.type ?? sharedType).map(SwiftTypeReference.init)
                    ?? binding.initializer.flatMap { Self.inferredType($0.value) }
                properties.append(SwiftPropertyDeclaration(
                    name: name, type: type, initializer: binding.initializer?.value,
                    attribute: Self.attribute(variable.attributes, named: "Attribute"),
                    relationship: Self.attribute(variable.attributes, named: "Relationship"),
                    location: location(identifier)))
            }
        }
        // Bindings were walked backwards for the shared annotation; keep the written order.
        return properties.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    }

    /// A binding with a getter (or a bare code block) is computed; `willSet`/`didSet` observers keep it stored.
    static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return false }
        switch block.accessors {
        case .getter: return true
        case .accessors(let accessors):
            return accessors.contains { !["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }

    /// The type of a literal initial value (`0` → Int, `""` → String, `Date()` → Date, `[Item]()` → [Item]).
    static func inferredType(_ value: ExprSyntax) -> SwiftTypeReference? {
        if value.is(IntegerLiteralExprSyntax.self) { return .named("Int", []) }
        if value.is(FloatLiteralExprSyntax.self) { return .named("Double", []) }
        if value.is(StringLiteralExprSyntax.self) { return .named("String", []) }
        if value.is(BooleanLiteralExprSyntax.self) { return .named("Bool", []) }
        if let prefix = value.as(PrefixOperatorExprSyntax.self) { return inferredType(prefix.expression) }
        if let call = value.as(FunctionCallExprSyntax.self) {
            // `Date()`, `UUID()`, `[Item]()`, `Address(city: "")`.
            if let type = call.calledExpression.as(DeclReferenceExprSyntax.self) {
                return .named(type.baseName.text, [])
            }
            if let array = call.calledExpression.as(ArrayExprSyntax.self), array.elements.count == 1,
               let element = array.elements.first?.expression.as(DeclReferenceExprSyntax.self) {
                return .array(.named(element.baseName.text, []))
            }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
               member.declName.baseName.text == "init" {
                return .named(base.trimmedDescription, [])
            }
        }
        // `Date.now`, `Status.active`, `UUID.init()`.
        if let member = value.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
           base.baseName.text.first?.isUppercase == true {
            return .named(base.baseName.text, [])
        }
        return nil
    }

    func macros(_ members: MemberBlockItemListSyntax) -> [MacroExpansionDeclSyntax] {
        Self.flatMembers(members).compactMap { $0.as(MacroExpansionDeclSyntax.self) }
            .filter { ["Unique", "Index"].contains($0.macroName.text) }
    }

    /// `A.self` → "A"; `DataV1.User.self` → "DataV1.User".
    static func selfReference(_ expression: ExprSyntax) -> String? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
              let base = member.base else { return nil }
        return base.trimmedDescription
    }

    /// Every `X.self` in `expression`, in order.
    static func selfReferences(_ expression: ExprSyntax) -> [String] { selfReferences(Syntax(expression)) }

    static func selfReferences(_ node: Syntax) -> [String] {
        final class Finder: SyntaxVisitor {
            var names: [String] = []
            override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
                if let name = SwiftDeclarationCollector.selfReference(ExprSyntax(node)) {
                    names.append(name)
                    return .skipChildren
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.names
    }

    /// Every function call in `node`, outermost first.
    static func calls(in node: Syntax) -> [FunctionCallExprSyntax] {
        final class Finder: SyntaxVisitor {
            var calls: [FunctionCallExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                calls.append(node)
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.calls
    }

    /// The first `Schema.Version(a, b, c)` (or `.init(a, b, c)`) in `node` as "a.b.c".
    static func versionNumber(in node: Syntax) -> String? {
        for call in calls(in: node) {
            let callee = call.calledExpression.trimmedDescription
            guard callee.hasSuffix("Version") || callee.hasSuffix("init"), call.arguments.count == 3 else { continue }
            let parts = call.arguments.compactMap { $0.expression.as(IntegerLiteralExprSyntax.self)?.literal.text }
            if parts.count == 3 { return parts.joined(separator: ".") }
        }
        return nil
    }
}
