import CDStoreModel
import Foundation
import SwiftParser
import SwiftSyntax

/// Reads a SwiftData model from Swift sources: the `@Model` classes of a `.swift` file or of every `.swift`
/// file under a folder, parsed with swift-syntax and never compiled or run.
///
/// Which classes make the model, as SwiftData decides it:
/// - `version` given: the `VersionedSchema` whose type name or identifier (`Schema.Version(1, 0, 0)` →
///   "1.0.0") it is, and its `models`.
/// - else a literal `Schema([A.self, …])`, `Schema(versionedSchema: V.self)`, `ModelContainer(for: A.self, …)`
///   or `.modelContainer(for: …)` in the sources (`schema` names the enclosing declaration when there are
///   several);
/// - else the latest `VersionedSchema` (the last of the `SchemaMigrationPlan`'s `schemas`, or the highest
///   identifier);
/// - else every `@Model` class.
///
/// The chosen classes bring in every class they reach through relationships and superclasses. The version
/// identifier is the schema's, or "1.0.0" (SwiftData's default) without one.
///
/// Core Data equivalent: `NSManagedObjectModel.makeManagedObjectModel(for:)` on a SwiftData `Schema`.
package enum SwiftModelReader {
    /// Reads the `.swift` file or the folder of `.swift` files at `url`.
    ///
    /// - Throws: ``ModelError`` with code `malformedSwift` (a file that does not parse: file, line, column and
    ///   what was expected), `unsupportedSwiftType` (a property type SwiftData cannot store, with its name and
    ///   why), `unknownVersion` (`version` or `schema` names nothing in the sources) or `fileNotFound`.
    package static func load(_ url: URL, version: String? = nil, schema: String? = nil) throws -> LoadedModel {
        let files = try SwiftSourceFiles.list(at: url)
        var sources: [(file: String, text: String)] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw ModelError(.fileNotFound, "cannot read this file", file: file.path)
            }
            sources.append((file.path, String(decoding: data, as: UTF8.self)))
        }
        return try read(sources, origin: url, version: version, schema: schema)
    }

    /// Reads a model from source texts (each with the file name its errors name).
    package static func read(_ sources: [(file: String, text: String)], origin: URL, version: String? = nil,
                            schema: String? = nil) throws -> LoadedModel {
        var declarations = SwiftDeclarations()
        for source in sources {
            if let problem = SwiftBracketDepth.check(source.text, file: source.file) { throw problem }
            let tree = Parser.parse(source: source.text)
            if let problem = SwiftSyntaxProblem.first(in: tree, file: source.file) { throw problem }
            let collector = SwiftDeclarationCollector(file: source.file, tree: tree)
            collector.walk(tree)
            declarations.merge(collector.found)
        }
        declarations.placeDeclarationsOfAliasExtensions()
        var builder = SwiftModelBuilder(declarations)
        let choice = try SwiftSchemaChoice.choose(in: declarations, version: version, schema: schema, builder: builder)
        let model = try builder.build(choice.classes, versionIdentifier: choice.identifier)
        var loaded = LoadedModel(model: model, file: origin, format: .swiftSource, versionName: choice.versionName,
                                 availableVersions: choice.availableVersions,
                                 warnings: builder.warnings + choice.warnings, sourceMap: builder.sourceMap)
        loaded.propertyOrder = [:]
        // The plan that orders the versions is the one whose stages a migration goes through.
        loaded.migrationStages = declarations.migrationPlans.first?.stages.map { stage in
            SchemaMigrationStage(from: Self.typeName(stage.from), to: Self.typeName(stage.to),
                                 isLightweight: stage.isLightweight, name: stage.name,
                                 location: "\(stage.location.file):\(stage.location.line):\(stage.location.column)")
        } ?? []
        loaded.swiftReader = reader
        return loaded
    }

    /// `Outer.SchemaV1` → `SchemaV1`: versions are listed by their type names.
    private static func typeName(_ written: String) -> String {
        written.split(separator: ".").last.map(String.init) ?? written
    }

    /// This reader as the model loaders take it (``ModelLoader/load(_:version:schema:swiftReader:)``).
    package static let reader: any SwiftSourceReading = Reader()

    /// The reader as ``SwiftSourceReading`` sees it.
    private struct Reader: SwiftSourceReading {
        func load(_ url: URL, version: String?, schema: String?) throws -> LoadedModel {
            try SwiftModelReader.load(url, version: version, schema: schema)
        }
    }
}

extension SwiftDeclarations {
    mutating func merge(_ other: SwiftDeclarations) {
        classes += other.classes
        valueTypes += other.valueTypes
        typeAliases += other.typeAliases
        protocols.merge(other.protocols) { first, _ in first }
        extensionConformances.merge(other.extensionConformances) { $0 + $1 }
        versionedSchemas += other.versionedSchemas
        migrationPlans += other.migrationPlans
        schemaLiterals += other.schemaLiterals
    }
}
