import CDStoreModel

/// Which `@Model` classes make the model, and its version (see ``SwiftModelReader``).
struct SwiftSchemaChoice {
    var classes: [SwiftModelClass]
    var identifier: String
    /// The chosen `VersionedSchema`'s type name, when one was chosen.
    var versionName: String?
    /// Every `VersionedSchema`'s type name, oldest first.
    var availableVersions: [String]
    var warnings: [String] = []

    static func choose(in declarations: SwiftDeclarations, version: String?, schema: String?,
                       builder: SwiftModelBuilder) throws -> SwiftSchemaChoice {
        let versions = orderedVersions(declarations)
        let names = versions.map(\.name)
        // `--schema` names a literal's declaration or a VersionedSchema; nothing else.
        if let schema, !declarations.schemaLiterals.contains(where: { $0.name == schema }) {
            guard let picked = versions.first(where: { $0.name == schema || $0.qualifiedName == schema }) else {
                throw ModelError(.unknownVersion, unknownSchema(schema, declarations: declarations, versions: versions))
            }
            if let version, ![picked.name, picked.qualifiedName, picked.identifier].contains(version) {
                throw ModelError(.unknownVersion, "the schema '\(schema)' is version '\(picked.identifier ?? "1.0.0")', "
                                 + "not '\(version)': give the schema or the version, not both")
            }
            return try versioned(picked, names: names, builder: builder)
        }
        // `--model-version` also names a schema literal, for sources with several and no versioned schema.
        if let version, schema == nil, !versions.contains(where: { $0.name == version || $0.identifier == version }),
           declarations.schemaLiterals.contains(where: { $0.name == version }) {
            return try choose(in: declarations, version: nil, schema: version, builder: builder)
        }
        if let version {
            guard let picked = versions.first(where: { $0.name == version || $0.qualifiedName == version
                                                        || $0.identifier == version }) else {
                let known = versions.map { "'\($0.name)' (\($0.identifier ?? "no identifier"))" }
                throw ModelError(.unknownVersion, "no VersionedSchema is named or numbered '\(version)'"
                                 + (known.isEmpty ? "; the sources declare none" : "; the sources declare "
                                    + known.joined(separator: ", ")))
            }
            return try versioned(picked, names: names, builder: builder)
        }
        let literals = declarations.schemaLiterals
        if !literals.isEmpty {
            var chosen = literals
            if let schema { chosen = literals.filter { $0.name == schema } }
            var warnings: [String] = []
            let distinct = Set(chosen.map { $0.models.joined(separator: ",") + "|" + ($0.versionedSchema ?? "") })
            if distinct.count > 1 {
                warnings.append("the sources hand SwiftData different sets of models (in "
                                + chosen.map { "'\($0.name)'" }.joined(separator: ", ")
                                + "); the model holds them all (give one of those names as the model version "
                                + "to use only its models)")
            }
            var roots: [SwiftModelClass] = []
            var identifier: String?
            var versionName: String?
            for literal in chosen {
                if let schemaName = literal.versionedSchema {
                    guard let picked = try builder.lookup(schemaName, from: literal.scope, in: versions,
                                                          qualifiedName: \.qualifiedName, kind: "VersionedSchema")
                    else { continue }
                    roots += try classes(picked.models, from: picked.scope + [picked.name], at: picked.location,
                                         builder: builder)
                    identifier = picked.identifier
                    versionName = picked.name
                } else {
                    roots += try classes(literal.models, from: literal.scope, at: literal.location, builder: builder)
                }
            }
            if identifier == nil, let match = versions.first(where: { candidate in
                let members = (try? classes(candidate.models, from: candidate.scope + [candidate.name],
                                             at: candidate.location, builder: builder)) ?? []
                return Set(members.map(\.qualifiedName)) == Set(roots.map(\.qualifiedName))
            }) {
                identifier = match.identifier
                versionName = match.name
            }
            return SwiftSchemaChoice(classes: try reachable(roots, builder: builder), identifier: identifier ?? "1.0.0",
                                     versionName: versionName, availableVersions: names, warnings: warnings)
        }
        if let latest = versions.last {
            return try versioned(latest, names: names, builder: builder)
        }
        return SwiftSchemaChoice(classes: declarations.classes, identifier: "1.0.0", versionName: nil,
                                 availableVersions: [])
    }

    /// "no … is named 'X'; the sources have 'container' (a Schema literal), 'V1' (VersionedSchema 1.0.0)".
    private static func unknownSchema(_ schema: String, declarations: SwiftDeclarations,
                                      versions: [SwiftVersionedSchema]) -> String {
        var seen: Set<String> = []
        var known: [String] = []
        for literal in declarations.schemaLiterals where seen.insert(literal.name).inserted {
            known.append("'\(literal.name)' (a \(literal.kind) literal)")
        }
        for version in versions {
            known.append("'\(version.name)' (VersionedSchema \(version.identifier ?? "1.0.0"))")
        }
        return "no Schema or ModelContainer literal is in a declaration named '\(schema)' and no VersionedSchema is "
            + "named so; " + (known.isEmpty ? "the sources have neither (every @Model class makes the model)"
                              : "the sources have " + known.joined(separator: ", "))
    }

    private static func versioned(_ schema: SwiftVersionedSchema, names: [String],
                                  builder: SwiftModelBuilder) throws -> SwiftSchemaChoice {
        let roots = try classes(schema.models, from: schema.scope + [schema.name], at: schema.location, builder: builder)
        return SwiftSchemaChoice(classes: try reachable(roots, builder: builder),
                                 identifier: schema.identifier ?? "1.0.0", versionName: schema.name,
                                 availableVersions: names)
    }

    /// The versioned schemas, oldest first: in the order of the first migration plan's `schemas`, the others
    /// after them by identifier.
    static func orderedVersions(_ declarations: SwiftDeclarations) -> [SwiftVersionedSchema] {
        var unique: [SwiftVersionedSchema] = []
        for schema in declarations.versionedSchemas {
            // An extension may add to a schema declared elsewhere.
            if let index = unique.firstIndex(where: { $0.qualifiedName == schema.qualifiedName }) {
                unique[index].models += schema.models
            } else {
                unique.append(schema)
            }
        }
        let planned = declarations.migrationPlans.first?.schemas ?? []
        func rank(_ schema: SwiftVersionedSchema) -> Int {
            planned.firstIndex { $0 == schema.name || $0 == schema.qualifiedName || $0.hasSuffix("." + schema.name) }
                ?? planned.count
        }
        return unique.sorted { a, b in
            let (ra, rb) = (rank(a), rank(b))
            if ra != rb { return ra < rb }
            return numeric(a.identifier).lexicographicallyPrecedes(numeric(b.identifier))
        }
    }

    private static func numeric(_ identifier: String?) -> [Int] {
        (identifier ?? "").split(separator: ".").map { Int($0) ?? 0 }
    }

    /// The classes a list of `X.self` names; an unknown name is an error at `location`, the list's declaration.
    private static func classes(_ written: [String], from scope: [String], at location: SwiftSourceLocation,
                                builder: SwiftModelBuilder) throws -> [SwiftModelClass] {
        try written.map { name in
            guard let found = try builder.findClass(name, from: scope) else {
                throw ModelError(.unsupportedSwiftType, "'\(name).self' names no @Model class of these sources",
                                 file: location.file, line: location.line, column: location.column)
            }
            return found
        }
    }

    /// `roots` and every class they reach through relationships and superclasses, roots first.
    static func reachable(_ roots: [SwiftModelClass], builder: SwiftModelBuilder) throws -> [SwiftModelClass] {
        var result: [SwiftModelClass] = []
        var pending = roots
        while !pending.isEmpty {
            let next = pending.removeFirst()
            guard !result.contains(where: { $0.qualifiedName == next.qualifiedName }) else { continue }
            result.append(next)
            if let parent = next.superclass, let parentClass = try builder.findClass(parent, from: next.scope) {
                pending.append(parentClass)
            }
            let body = next.scope + [next.name]
            for property in next.properties {
                guard let type = property.type else { continue }
                var base = builder.resolvingAliases(type, from: body).unwrapped.type
                if case .array(let element) = base { base = element.unwrapped.type }
                if case .set(let element) = base { base = element.unwrapped.type }
                if case .named(let name, []) = base, let found = try builder.findClass(name, from: body) {
                    pending.append(found)
                }
            }
        }
        return result
    }
}
