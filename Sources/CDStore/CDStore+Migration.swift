import CDStoreModel
import CDStoreMigration
import CDStoreEngine
import Foundation

extension CDStore {
    /// How ``migrate(storeAt:to:options:)`` migrates.
    public struct MigrationOptions: Sendable {
        /// Mapping models to use besides those found under the folder holding the model (`.xcmappingmodel`
        /// folders or compiled `.cdm` files).
        public var mappingModels: [String]
        /// Work out the plan on a temporary copy and leave the store untouched.
        public var dryRun: Bool
        /// Run entity mappings that name an `NSEntityMigrationPolicy` subclass or call `$entityPolicy` with the
        /// default policy (leaving those values out, with a warning per mapping) instead of refusing them.
        public var withoutPolicies: Bool
        /// Copy the store (with `-wal`/`-shm`) to `<store>.backup-<yyyyMMdd-HHmmss>` before the first change.
        public var backup: Bool

        /// Options; by default: only mapping models found beside the model, a real run, policies refused, a backup.
        public init(mappingModels: [String] = [], dryRun: Bool = false, withoutPolicies: Bool = false, backup: Bool = true) {
            self.mappingModels = mappingModels
            self.dryRun = dryRun
            self.withoutPolicies = withoutPolicies
            self.backup = backup
        }
    }

    /// What a migration did (or, for a dry run, would do): the chain of model versions, which hop ran which
    /// mapping model (or was inferred), and per entity mapping the objects taken, created and left behind.
    public struct MigrationPlan: Sendable, CustomStringConvertible {
        /// The plan, one line per step, entity mapping and change, as `cdstore migrate` prints it.
        public let lines: [String]
        /// What the migration could not do as asked (a policy skipped, a mapping model file that could not be read).
        public let warnings: [String]
        /// Where the backup copy went (nil without a backup, for a dry run, or when there was nothing to do).
        public let backupPath: String?
        /// Whether the store was left untouched because this was a dry run.
        public let isDryRun: Bool
        /// Whether the store already matched the model (nothing to migrate).
        public let isUpToDate: Bool
        /// The lines, joined.
        public var description: String { lines.joined(separator: "\n") }
    }

    /// Migrates the store at `path` to `model`, as Core Data's migration manager does: with the mapping model that
    /// matches a hop (found recursively under the folder holding the model, or given in `options`), else with an
    /// inferred mapping, through the versions of the model's bundle in between when needed.
    ///
    /// ```swift
    /// let plan = try CDStore.migrate(storeAt: "Books.sqlite", to: .path("Books.xcdatamodeld"),
    ///                                options: .init(mappingModels: ["V1toV2.cdm"], dryRun: true))
    /// print(plan)   // step "V1" → "V2" by mapping model V1toV2.cdm: … / BookToBook (Book → Book): 3 taken, 3 created, 0 left behind
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
    public static func migrate(storeAt path: String, to model: Model, options: MigrationOptions = .init()) throws -> MigrationPlan {
        try CDStoreError.wrapping {
            let loaded = try model.load()
            let report = try Store.migrate(at: path, to: loaded, options: CDStoreMigration.MigrationOptions(
                backup: options.backup, dryRun: options.dryRun, mappingPaths: options.mappingModels,
                withoutPolicies: options.withoutPolicies))
            return MigrationPlan(lines: report.lines, warnings: report.warnings, backupPath: report.backupPath,
                                 isDryRun: options.dryRun, isUpToDate: report.steps.isEmpty)
        }
    }

    /// A mapping model (`.xcmappingmodel` or compiled `.cdm`) readably: entity mappings in the order they run,
    /// source → destination, type, policy, filter and every value expression; JSON with `json`. Generated
    /// expressions are completed against the model versions the file names when they are found beside it.
    ///
    /// This is `cdstore mapping show`. Core Data equivalent: `NSMappingModel(contentsOf:)`.
    ///
    /// - Throws: ``CDStoreError`` naming the file and the object for a damaged or hostile file.
    public static func describeMappingModel(at path: String, json: Bool = false) throws -> String {
        try CDStoreError.wrapping {
            var mapping = try MappingModelReader.read(path)
            let (source, destination) = mapping.modelVersionFiles()
            if let source, let destination, let from = try? ModelLoader.load(source.path),
               let to = try? ModelLoader.load(destination.path) {
                mapping = mapping.resolved(source: from.model, destination: to.model)
            }
            return json ? mapping.json : mapping.lines.joined(separator: "\n")
        }
    }

    /// The mapping model inference would use from `source` to `destination`, in ``describeMappingModel(at:json:)``'s
    /// form, so that it can be compared with the one an app ships.
    ///
    /// This is `cdstore mapping infer`. Core Data equivalent: `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`.
    ///
    /// - Throws: ``CDStoreError`` with ``CDStoreError/Code/modelMismatch`` when the mapping cannot be inferred (134190).
    public static func describeInferredMapping(from source: Model, to destination: Model, json: Bool = false) throws -> String {
        try CDStoreError.wrapping {
            let mapping = try MappingModel.inferred(from: source.load(), to: destination.load())
            return json ? mapping.json : mapping.lines.joined(separator: "\n")
        }
    }
}
