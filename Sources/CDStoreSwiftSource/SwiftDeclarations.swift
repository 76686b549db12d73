import CDStoreModel
import SwiftSyntax

/// A place in a Swift source file (1-based line and column).
struct SwiftSourceLocation: Equatable {
    var file: String
    var line: Int
    var column: Int
}

/// A stored or computed property of a `@Model` class or a Codable struct, as written.
struct SwiftPropertyDeclaration {
    var name: String
    /// The annotated type, or the one inferred from a literal initial value; nil when neither says.
    var type: SwiftTypeReference?
    var initializer: ExprSyntax?
    /// `@Attribute(…)` and `@Relationship(…)`, when present.
    var attribute: AttributeSyntax?
    var relationship: AttributeSyntax?
    var location: SwiftSourceLocation
}

/// A `@Model` class.
struct SwiftModelClass {
    var name: String
    /// The name with its enclosing types and extended types (`DataV1.User`).
    var qualifiedName: String
    var scope: [String]
    var superclass: String?
    var properties: [SwiftPropertyDeclaration]
    /// `#Unique<…>(…)` and `#Index<…>(…)` in the class body.
    var macros: [MacroExpansionDeclSyntax]
    var location: SwiftSourceLocation
}

/// A struct, enum or (not `@Model`) class declared in the sources, which a model property may use as a Codable
/// value (a class only inside a collection, which is archived whole).
struct SwiftValueType {
    enum Kind { case structure, enumeration, plainClass }
    var kind: Kind
    var name: String
    var qualifiedName: String
    var scope: [String]
    /// Names in the inheritance clause (conformances added by extensions are merged in later).
    var inherited: [String]
    /// Stored properties of a struct.
    var properties: [SwiftPropertyDeclaration]
    /// Cases of an enum, with whether each has associated values.
    var cases: [(name: String, hasAssociatedValues: Bool)]
    var location: SwiftSourceLocation
}

/// A `typealias Name = Target` (not generic): Swift and SwiftData see only the target, so lookups follow it.
struct SwiftTypeAlias {
    var name: String
    var qualifiedName: String
    var scope: [String]
    var target: SwiftTypeReference
}

/// An enum or struct conforming to `VersionedSchema`.
struct SwiftVersionedSchema {
    var name: String
    var qualifiedName: String
    var scope: [String]
    /// `Schema.Version(1, 0, 0)` as "1.0.0".
    var identifier: String?
    /// The types its `models` lists (`X.self`), as written.
    var models: [String]
    var location: SwiftSourceLocation
}

/// A `SchemaMigrationPlan`: the versioned schemas in order and its stages.
struct SwiftMigrationPlan {
    struct Stage {
        var isLightweight: Bool
        var from: String
        var to: String
        var location: SwiftSourceLocation
        /// The property holding the stage (`static let migrateV1toV2 = MigrationStage.custom(…)`); nil for a
        /// stage written inline in `stages`.
        var name: String?
    }
    var name: String
    var scope: [String]
    var schemas: [String]
    var stages: [Stage]
}

/// A literal `Schema([A.self, …])`, `Schema(versionedSchema: V.self)`, `ModelContainer(for: A.self, …)` or
/// `.modelContainer(for: …)`: the types an app hands SwiftData.
struct SwiftSchemaLiteral {
    /// The enclosing declaration (variable, function or type), by which `--schema` names it.
    var name: String
    var scope: [String]
    var models: [String]
    var versionedSchema: String?
    var location: SwiftSourceLocation
    /// "Schema" or "ModelContainer", for messages.
    var kind = "Schema"
}

/// Everything the model reader needs from a set of Swift files.
struct SwiftDeclarations {
    var classes: [SwiftModelClass] = []
    var valueTypes: [SwiftValueType] = []
    var typeAliases: [SwiftTypeAlias] = []
    /// Protocols declared in the sources and what they inherit, so a struct conforming to a protocol that
    /// refines `Codable` counts as Codable.
    var protocols: [String: [String]] = [:]
    /// Conformances added by extensions, keyed by the extended type as written.
    var extensionConformances: [String: [String]] = [:]
    var versionedSchemas: [SwiftVersionedSchema] = []
    var migrationPlans: [SwiftMigrationPlan] = []
    var schemaLiterals: [SwiftSchemaLiteral] = []
}
