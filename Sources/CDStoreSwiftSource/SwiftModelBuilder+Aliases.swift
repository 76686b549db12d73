/// Type aliases, followed as Swift follows them: `typealias Money = Decimal` makes a `Money` property a Decimal
/// attribute, and `typealias Card = SchemaV2.Card` (the usual name for a versioned schema's current model)
/// names that one class where a bare `Card` would be ambiguous between the schema versions.
extension SwiftModelBuilder {
    /// The alias `written` names from inside `scope`: the innermost scope declaring the name wins, and a class,
    /// struct or enum of that name there hides any alias further out.
    func alias(_ written: String, from scope: [String]) -> SwiftTypeAlias? {
        for depth in stride(from: scope.count, through: 0, by: -1) {
            let name = (scope.prefix(depth) + [written]).joined(separator: ".")
            if declarations.classes.contains(where: { $0.qualifiedName == name })
                || declarations.valueTypes.contains(where: { $0.qualifiedName == name }) { return nil }
            if let alias = declarations.typeAliases.first(where: { $0.qualifiedName == name }) { return alias }
        }
        return nil
    }

    /// `type` with every alias replaced by what it stands for; a replaced name that is a type of the sources is
    /// given fully qualified, since it was written in the alias's scope rather than the property's.
    /// `expanding`: the aliases being replaced further up, so that a cycle (a compile error in Swift) stops at the
    /// alias that closes it and each alias is expanded at most once on a path.
    func resolvingAliases(_ type: SwiftTypeReference, from scope: [String],
                          expanding: Set<String> = []) -> SwiftTypeReference {
        switch type {
        case .optional(let wrapped): return .optional(resolvingAliases(wrapped, from: scope, expanding: expanding))
        case .array(let element): return .array(resolvingAliases(element, from: scope, expanding: expanding))
        case .set(let element): return .set(resolvingAliases(element, from: scope, expanding: expanding))
        case .dictionary(let key, let value):
            return .dictionary(resolvingAliases(key, from: scope, expanding: expanding),
                               resolvingAliases(value, from: scope, expanding: expanding))
        case .unsupported: return type
        case .named(let name, let arguments):
            let arguments = arguments.map { resolvingAliases($0, from: scope, expanding: expanding) }
            if let alias = alias(name, from: scope) {
                guard !expanding.contains(alias.qualifiedName) else { return .named(name, arguments) }
                let target = resolvingAliases(alias.target, from: alias.scope, expanding: expanding.union([alias.qualifiedName]))
                guard case .named(let targetName, let targetArguments) = target else { return target }
                let declared = (try? lookupDeclared(targetName, from: alias.scope, in: declarations.classes,
                                                    qualifiedName: \.qualifiedName, kind: "@Model class"))??.qualifiedName
                    ?? (try? lookupDeclared(targetName, from: alias.scope, in: declarations.valueTypes,
                                            qualifiedName: \.qualifiedName, kind: "type"))??.qualifiedName
                return .named(declared ?? targetName, targetArguments)
            }
            guard let dot = name.firstIndex(of: ".") else { return .named(name, arguments) }
            let head = String(name[..<dot]), rest = String(name[name.index(after: dot)...])
            // `SchemaLatest.Animal` with `typealias SchemaLatest = SchemaV2`.
            if let headAlias = alias(head, from: scope), !expanding.contains(headAlias.qualifiedName),
               case .named(let resolvedHead, []) = resolvingAliases(.named(head, []), from: scope, expanding: expanding),
               resolvedHead != head {
                return resolvingAliases(.named(resolvedHead + "." + rest, arguments), from: [],
                                        expanding: expanding.union([headAlias.qualifiedName]))
            }
            // `MyApp.Product`: the sources are one module, whose name is none of their types.
            let restHead = String(rest.prefix { $0 != "." })
            if !declaresName(head, from: scope), declaresName(restHead, from: []) {
                return resolvingAliases(.named(rest, arguments), from: [], expanding: expanding)
            }
            return .named(name, arguments)
        }
    }

    /// Whether the sources declare `name` (a type, an alias, or a namespace that an extension adds to) in
    /// `scope` or around it.
    private func declaresName(_ name: String, from scope: [String]) -> Bool {
        let qualifiedNames = declarations.classes.map(\.qualifiedName) + declarations.valueTypes.map(\.qualifiedName)
            + declarations.typeAliases.map(\.qualifiedName)
        for depth in stride(from: scope.count, through: 0, by: -1) {
            let candidate = (scope.prefix(depth) + [name]).joined(separator: ".")
            if qualifiedNames.contains(where: { $0 == candidate || $0.hasPrefix(candidate + ".") }) { return true }
        }
        return false
    }
}

extension SwiftDeclarations {
    /// An extension of an alias extends the aliased type: with `typealias Current = SchemaV1`,
    /// `extension Current { @Model class Version … }` declares `SchemaV1.Version`, which `SchemaV1`'s `models`
    /// names as `Version`. Declarations made in such extensions are moved to the type the alias names.
    mutating func placeDeclarationsOfAliasExtensions() {
        var targets: [String: [String]] = [:]
        for alias in typeAliases where alias.scope.isEmpty {
            if case .named(let target, []) = alias.target {
                targets[alias.name] = target.split(separator: ".").map(String.init)
            }
        }
        guard !targets.isEmpty else { return }
        func resolved(_ scope: [String]) -> [String] {
            var scope = scope
            for _ in 0..<16 {
                guard let first = scope.first, let target = targets[first], target.first != first else { break }
                scope = target + scope.dropFirst()
            }
            return scope
        }
        func move<T: SwiftScopedDeclaration>(_ declarations: inout [T]) {
            for index in declarations.indices where !declarations[index].scope.isEmpty {
                declarations[index].scope = resolved(declarations[index].scope)
                declarations[index].qualifiedName = (declarations[index].scope + [declarations[index].name])
                    .joined(separator: ".")
            }
        }
        move(&classes)
        move(&valueTypes)
        move(&typeAliases)
        move(&versionedSchemas)
        for index in schemaLiterals.indices { schemaLiterals[index].scope = resolved(schemaLiterals[index].scope) }
        for index in migrationPlans.indices { migrationPlans[index].scope = resolved(migrationPlans[index].scope) }
    }
}

/// A declaration named inside the types that enclose it.
protocol SwiftScopedDeclaration {
    var name: String { get }
    var scope: [String] { get set }
    var qualifiedName: String { get set }
}

extension SwiftModelClass: SwiftScopedDeclaration {}
extension SwiftValueType: SwiftScopedDeclaration {}
extension SwiftTypeAlias: SwiftScopedDeclaration {}
extension SwiftVersionedSchema: SwiftScopedDeclaration {}
