import CDStoreModel
import CDStoreMigration
import CDStoreEngine
import Foundation

extension CDStore {
    /// What a migration did (or, for a dry run, would do): the chain of model versions, which hop ran which
    /// mapping model (or was inferred), and per entity mapping the objects taken, created and left behind.
    public struct MigrationPlan: Sendable {
        /// One hop between two model versions.
        public struct Step: Sendable {
            /// The source model version (its name in the `.xcdatamodeld`, or a description of the store's model).
            public var from: String
            /// The destination model version.
            public var to: String
            /// The mapping model the hop ran; nil when the mapping was inferred.
            public var mappingModel: String?
            /// The differences between the two versions, as `ManagedObjectModel.changes(to:)` gives them.
            public var changes: [ModelChange]
            /// For each of `changes`, how many SQL statements touched its tables.
            public var statementCounts: [Int]
            /// The SQL statements the hop issued on the store (temporary working tables left out); those that touch
            /// no entity's table keep `Z_PRIMARYKEY` and the metadata.
            public var statementCount: Int
            /// How many of the statements touch no entity's table.
            public var bookkeepingStatementCount: Int
            /// Whether entity numbers had to be reassigned (and the rows' `Z_ENT` rewritten).
            public var renumbersEntities: Bool
            /// Per entity mapping, the objects it took, created and left behind; for an inferred hop, the objects of
            /// each removed entity.
            public var objectCounts: [MappedObjects]
        }

        /// What one entity mapping did with the objects of its source entity: taken, created, left behind.
        public typealias MappedObjects = CDStoreMigration.MappedObjectCount

        /// The hops, in order; empty when the store already matched the model.
        public let steps: [Step]
        /// What the migration could not do as asked (a policy skipped, a mapping model file that could not be read).
        public let warnings: [String]
        /// Where the backup copy went (nil without a backup, for a dry run, or when there was nothing to do).
        public let backupPath: String?
        /// Whether the store was left untouched because this was a dry run.
        public let isDryRun: Bool
    }

    /// Migrates the store at `path` to `model`, as Core Data's migration manager does: with the mapping model that
    /// matches a hop (found recursively under the folder holding the model, or given in `mappingModels`), else with
    /// an inferred mapping, through the versions of the model's bundle in between when needed.
    ///
    /// - Parameters:
    ///   - path: The store file.
    ///   - model: The model to migrate it to (the store's current version is found among that model's versions).
    ///   - mappingModels: Mapping models to use besides those found beside the model (`.xcmappingmodel` folders or
    ///     compiled `.cdm` files).
    ///   - dryRun: Work out the plan on a temporary copy and leave the store untouched.
    ///   - withoutPolicies: Run entity mappings that name an `NSEntityMigrationPolicy` subclass or call
    ///     `$entityPolicy` with the default policy (leaving those values out, with a warning per mapping) instead
    ///     of refusing them.
    ///   - backup: Copy the store (with `-wal`/`-shm`) to `<store>.backup-<yyyyMMdd-HHmmss>` before the first change.
    ///
    /// ```swift
    /// let plan = try CDStore.migrate(storeAt: "Books.sqlite", to: .path("Books.xcdatamodeld"),
    ///                                mappingModels: ["V1toV2.cdm"], dryRun: true)
    /// for step in plan.steps { print(step.from, "→", step.to, step.mappingModel ?? "inferred") }
    /// ```
    ///
    /// Everything runs in one transaction; a refusal or failure leaves the store, its `-wal` and `-shm` byte for
    /// byte as they were. This is `cdstore migrate`.
    ///
    /// Core Data equivalent: `NSMigrationManager.migrateStore(from:type:options:with:toDestinationURL:…)`.
    ///
    /// - Throws: ``CDStoreError`` with ``CDStoreError/Code/modelMismatch`` for a migration that cannot be done
    ///   (a mapping that needs app code: the policy class or selector and the mappings are named; a change that
    ///   cannot be inferred, 134190), ``CDStoreError/Code/noModel`` when no model matches the store (134130),
    ///   ``CDStoreError/Code/missingValue`` when the mapped objects do not validate, ``CDStoreError/Code/cannotOpen``.
    public static func migrate(storeAt path: String, to model: Model, mappingModels: [String] = [], dryRun: Bool = false,
                               withoutPolicies: Bool = false, backup: Bool = true) throws -> MigrationPlan {
        try CDStoreError.wrapping {
            let loaded = try model.load()
            let report = try Store.migrate(at: path, to: loaded, options: MigrationOptions(
                backup: backup, dryRun: dryRun, mappingPaths: mappingModels, withoutPolicies: withoutPolicies))
            return MigrationPlan(report, isDryRun: dryRun)
        }
    }
}

/// A mapping model: entity mappings in the order Core Data's migration manager runs them, each with its source and
/// destination entity, type, policy class, filter and a value expression per destination property.
///
/// Core Data equivalent: `NSMappingModel`.
public typealias MappingModel = CDStoreModel.MappingModel

extension MappingModel {
    /// Reads a mapping model: an `.xcmappingmodel` folder (or its `xcmapping.xml`) or a compiled `.cdm` file.
    /// Generated expressions are completed against the model versions the file names, when they are found beside it.
    ///
    /// ```swift
    /// let mapping = try MappingModel(contentsOf: "V1toV2.xcmappingmodel")
    /// for entityMapping in mapping.entityMappings { print(entityMapping.name, entityMapping.type.name) }
    /// ```
    ///
    /// This is `cdstore mapping show`. Core Data equivalent: `NSMappingModel(contentsOf:)`.
    ///
    /// - Throws: ``CDStoreError`` naming the file and the object for a damaged or hostile file.
    public init(contentsOf path: String) throws {
        self = try CDStoreError.wrapping {
            let mapping = try MappingModelReader.read(path)
            let (source, destination) = mapping.modelVersionFiles()
            if let source, let destination, let from = try? ModelLoader.load(source.path),
               let to = try? ModelLoader.load(destination.path) {
                return mapping.resolved(source: from.model, destination: to.model)
            }
            return mapping
        }
    }

    /// The mapping model inference would use from `source` to `destination`, to compare with the one an app ships.
    ///
    /// This is `cdstore mapping infer`. Core Data equivalent: `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`.
    ///
    /// - Throws: ``CDStoreError`` with ``CDStoreError/Code/modelMismatch`` when the mapping cannot be inferred (134190).
    public static func inferred(from source: CDStore.Model, to destination: CDStore.Model) throws -> MappingModel {
        try CDStoreError.wrapping { try MappingModel.inferred(from: source.load(), to: destination.load()) }
    }
}

extension CDStore.MigrationPlan {
    init(_ report: MigrationReport, isDryRun: Bool) {
        steps = report.steps.map { step in
            Step(from: step.from, to: step.to, mappingModel: step.mappingFile, changes: step.changes,
                 statementCounts: step.changes.indices.map(step.statementCount(forChange:)),
                 statementCount: step.statements.count,
                 bookkeepingStatementCount: step.statements.filter { $0.tables.isEmpty }.count,
                 renumbersEntities: step.renumberedEntities,
                 objectCounts: step.objectCounts)
        }
        warnings = report.warnings
        backupPath = report.backupPath
        self.isDryRun = isDryRun
    }
}
