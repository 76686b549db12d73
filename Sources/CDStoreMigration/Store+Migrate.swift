import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// How to migrate a store.
package struct MigrationOptions: Sendable {
    /// Copy the store (and its `-wal`/`-shm` files) to `<store>.backup-<yyyyMMdd-HHmmss>` before the first change.
    package var backup: Bool
    /// Work out the plan on a temporary copy of the store and leave the store itself untouched.
    package var dryRun: Bool
    /// For tests: fail as if SQLite had failed after this many statements (the store must come out unchanged).
    package var failAfterStatements: Int?
    /// Mapping models to use besides those found beside the model (`.xcmappingmodel` folders or `.cdm` files).
    package var mappingPaths: [String]
    /// Run mappings that need custom code with the default `NSEntityMigrationPolicy` (warning once per mapping)
    /// instead of refusing them.
    package var withoutPolicies: Bool

    package init(backup: Bool = true, dryRun: Bool = false, failAfterStatements: Int? = nil, mappingPaths: [String] = [],
                 withoutPolicies: Bool = false) {
        self.backup = backup
        self.dryRun = dryRun
        self.failAfterStatements = failAfterStatements
        self.mappingPaths = mappingPaths
        self.withoutPolicies = withoutPolicies
    }
}

/// What a migration did (or, for a dry run, would do).
package struct MigrationReport: Sendable {
    /// One model step.
    package struct Step: Sendable {
        /// The source model version (its name in the `.xcdatamodeld`, or a description of the store's model).
        package var from: String
        /// The destination model version.
        package var to: String
        /// The differences, as `cdstore model diff` prints them.
        package var changes: [ModelChange]
        /// The statements issued on the store (temporary working tables left out).
        package var statements: [MigrationStatement]
        /// Whether entity numbers had to be reassigned (see ``Store/migrate(at:to:options:)``).
        package var renumberedEntities: Bool
        /// Tables each change concerns, for statement counts.
        var changeTables: [[String]]
        /// The mapping model the step ran (nil: the mapping was inferred).
        package var mappingFile: String?
        /// Per entity mapping, the objects taken, created and left behind; for an inferred step, the objects of
        /// each removed entity (dropped).
        package var objectCounts: [MappedObjectCount] = []

        /// The statements that touch the tables of `changes[index]`.
        package func statementCount(forChange index: Int) -> Int {
            let tables = Set(changeTables[index])
            return statements.filter { !Set($0.tables).isDisjoint(with: tables) }.count
        }
    }
    /// The steps, in order.
    package var steps: [Step]
    /// Where the backup copy went (nil with no backup, or a dry run).
    package var backupPath: String?
    /// Whether the store was left untouched (a dry run, or nothing to do).
    package var isDryRun: Bool
    /// Things the migration could not do as asked, one sentence each (e.g. a model kept as JSON because its
    /// `Z_MODELCACHE` could not be written).
    package var warnings: [String] = []
}


extension Store {
    /// Migrates the store at `path` to `destination`, as Core Data's lightweight migration with an inferred
    /// mapping model does (`NSMigratePersistentStoresAutomaticallyOption` + `NSInferMappingModelAutomaticallyOption`).
    ///
    /// The source model is the version of `destination`'s `.xcdatamodeld` whose entity hashes equal the store's
    /// `NSStoreModelVersionHashes`, else the model the store carries (its `Z_MODELCACHE` when that matches the
    /// store's hashes, else the JSON model earlier cdstore versions kept in the metadata), else error 134130. When the source is an earlier version of the same bundle and
    /// the direct mapping cannot be inferred, the store goes through every version in between, in the bundle's
    /// version order (``ModelLoader/versions(ofBundle:)``); otherwise in one step.
    ///
    /// Everything happens in one transaction: either the store ends up migrated, or it is left as it was (the
    /// backup copy is removed again). Existing entity numbers are kept in `Z_PRIMARYKEY` (new entities numbered
    /// after the highest); when a sub-tree would then not be numbered consecutively, all entities are numbered as
    /// in a new store and the rows' `Z_ENT` rewritten. `Z_UUID` is kept; the metadata's hashes, identifiers,
    /// digest and checksum are replaced at the end and `Z_MODELCACHE` gets the new model's cache (a JSON model
    /// under `cdstore.model` is dropped; see ``keepModel(_:in:metadata:)``). Refusals are ``StoreError/Code/modelMismatch`` errors
    /// naming the change with Core Data's number (134190 not inferable, 134130 no source model, 134100 unrelated
    /// model); SQLite failures are ``StoreError/Code/sqlite`` (134110).
    @discardableResult
    package static func migrate(at path: String, to destination: LoadedModel, options: MigrationOptions = .init()) throws -> MigrationReport {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError(.cannotOpen, "no store at \(path)") }
        // A refused migration leaves every file byte for byte as it was: even a read-only connection writes the
        // WAL index (-shm), and closing the last connection checkpoints and removes the -wal.
        let sideFiles = SideFiles(path: path)
        do {
            // Plan on a read-only connection (it never checkpoints): every refusal that does not depend on the data
            // comes from here, before the store is opened for writing.
            do {
                let planning = try open(path, readOnly: true)
                let metadata = try readMetadata(planning, path: path)
                guard try plan(database: planning, path: path, metadata: metadata, destination: destination, options: options) != nil else {
                    return MigrationReport(steps: [], backupPath: nil, isDryRun: options.dryRun)
                }
                try planning.close()
            }
            sideFiles.restore()
            let database = try open(path, readOnly: options.dryRun)
            let metadata = try readMetadata(database, path: path)
            return try migrate(database: database, path: path, metadata: metadata, destination: destination, options: options)
        } catch {
            sideFiles.restore()
            throw error
        }
    }

    /// The bytes of a store's `-wal` and `-shm` files (nil: absent), to put back after a refusal.
    struct SideFiles {
        let path: String
        let contents: [(String, Data?)]

        init(path: String) {
            self.path = path
            contents = ["-wal", "-shm"].map { suffix in
                (path + suffix, FileManager.default.contents(atPath: path + suffix))
            }
        }

        func restore() {
            for (file, data) in contents {
                if let data {
                    if FileManager.default.contents(atPath: file) != data { try? data.write(to: URL(fileURLWithPath: file)) }
                } else {
                    try? FileManager.default.removeItem(atPath: file)
                }
            }
        }
    }

    /// The differences between the store's model and `destination` (empty when the hashes match).
    package static func modelDifferences(at path: String, destination: LoadedModel) throws -> [ModelChange] {
        let database = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
        let metadata = try readMetadata(database, path: path)
        guard !metadata.hashDifferences(from: destination.model).isEmpty else { return [] }
        let source = try sourceModel(metadata: metadata, database: database, destination: destination, path: path)
        return ModelDiff.changes(from: source.loaded.model, to: destination.model)
    }

    private static func open(_ path: String, readOnly: Bool) throws -> DatabaseQueue {
        do {
            return try DatabaseQueue(path: path, configuration: configuration(readOnly: readOnly))
        } catch {
            throw StoreError(.cannotOpen, "cannot open \(path): \(describe(error))")
        }
    }

    /// The chains to try (nil: the store already matches `destination`), or the refusal.
    static func plan(database: DatabaseQueue, path: String, metadata: StoreMetadata, destination: LoadedModel,
                     options: MigrationOptions) throws -> (chains: [PlannedChain], warnings: [String])? {
        if metadata.plist != nil, metadata.hashDifferences(from: destination.model).isEmpty { return nil }
        let source = try sourceModel(metadata: metadata, database: database, destination: destination, path: path)
        // Opening a store with an older version of its model is almost always a mistake (a stale --model-version);
        // migrating would drop what the later versions added, so it is refused, as an app never downgrades a store.
        if let sourceIndex = source.versionIndex, let family = ModelVersionFamily(of: destination),
           let name = destination.versionName, let destinationIndex = family.names.firstIndex(of: name),
           destinationIndex < sourceIndex {
            throw StoreError(.modelMismatch, "the store was saved with \(source.name), a later version than the model given "
                             + "(\"\(name)\"); cdstore does not migrate a store back to an earlier version (Core Data error 134100)").coreData(134100)
        }
        let found = try mappingCandidates(destination: destination, paths: options.mappingPaths)
        let chains: [PlannedChain]
        if let mapped = try mappedChain(from: source, to: destination, candidates: found.candidates, options: options) {
            chains = [mapped]
        } else {
            chains = try migrationChains(from: source, to: destination).map { PlannedChain(models: $0) }
        }
        return (chains, found.warnings + unusedMappingNotes(found.candidates, chains: chains, sourceName: source.name))
    }

    /// A note for each mapping model given by path that no hop runs: it is for other versions, so it is left
    /// alone, as Core Data's migration manager passes over a mapping model whose entity hashes are not the hop's.
    static func unusedMappingNotes(_ candidates: [MappingCandidate], chains: [PlannedChain], sourceName: String) -> [String] {
        let used = Set(chains.flatMap { $0.steps.compactMap { $0?.model.file } })
        var noted: Set<String> = []
        return candidates.filter { $0.isGiven && !used.contains($0.model.file) }.compactMap { candidate in
            guard noted.insert(candidate.model.file).inserted else { return nil }
            let name = URL(fileURLWithPath: candidate.model.file).lastPathComponent
            return "the mapping model \(name) was not used: its source and destination entity hashes match no hop of the "
                + "migration from \(sourceName)"
        }
    }

    static func migrate(database: DatabaseQueue, path: String, metadata: StoreMetadata, destination: LoadedModel,
                        options: MigrationOptions) throws -> MigrationReport {
        guard let (chains, foundWarnings) = try plan(database: database, path: path, metadata: metadata, destination: destination,
                                                     options: options) else {
            return MigrationReport(steps: [], backupPath: nil, isDryRun: options.dryRun)
        }
        let sourceName = chains.first?.models.first?.1 ?? "the store's model"
        /// Runs the first chain that works.
        func runChains(_ database: DatabaseQueue) throws -> MigrationReport {
            for (index, chain) in chains.enumerated() {
                do {
                    var report = try run(chain, database: database, metadata: metadata, options: options)
                    report.warnings = foundWarnings + chain.warnings + report.warnings
                    return report
                } catch let error as StoreError where index < chains.count - 1 && error.coreDataCode == 134190 {
                    continue
                }
            }
            throw StoreError(.modelMismatch, "no way to migrate from \(sourceName) to the model given was found "
                             + "(Core Data error 134140)").coreData(134140)
        }
        if options.dryRun {
            // Run the migration on a copy: refusals that depend on the data show up exactly as they would.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdstore-dry-run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let copy = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path
            try copyStoreFiles(from: path, to: copy)
            let copyDatabase = try DatabaseQueue(path: copy, configuration: configuration(readOnly: false))
            var report = try runChains(copyDatabase)
            report.isDryRun = true
            return report
        }
        var backupPath: String?
        if options.backup { backupPath = try backUp(path) }
        do {
            var report = try runChains(database)
            report.backupPath = backupPath
            return report
        } catch {
            if let backupPath {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: backupPath + suffix) }
            }
            throw error
        }
    }

    private static func run(_ planned: PlannedChain, database: DatabaseQueue, metadata: StoreMetadata,
                            options: MigrationOptions) throws -> MigrationReport {
        let chain = planned.models
        var steps: [MigrationReport.Step] = []
        var warnings: [String] = []
        var executed = 0
        do {
            try database.write { db in
                let frameworkVersion = metadata.persistenceFrameworkVersion ?? StoreMetadata.frameworkVersion
                let style = StoreLayout.IndexStyle.forFrameworkVersion(frameworkVersion)
                let numbers = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
                    .reduce(into: [String: Int]()) { $0[$1["Z_NAME"] ?? ""] = $1["Z_ENT"] }
                let first = chain[0].0
                var sourceLayout = StoreLayout(model: first.model, options: .init(propertyOrder: first.propertyOrder, indexStyle: style))
                if let renumbered = try? sourceLayout.renumbered(byStoreNumbers: numbers) { sourceLayout = renumbered }
                for (index, (from, to)) in zip(chain, chain.dropFirst()).enumerated() {
                    let mapped = planned.steps[index]
                    let mapping = try mapped?.inferred
                        ?? InferredMapping(source: from.0.model, destination: to.0.model, sourceName: from.1, destinationName: to.1)
                    var statements: [MigrationStatement] = []
                    var objectCounts: [MappedObjectCount] = []
                    if let mapped {
                        objectCounts = try mapped.prepare(db: db, sourceLayout: sourceLayout, source: from.0.model) { sql in
                            executed += 1
                            if let limit = options.failAfterStatements, executed > limit {
                                throw StoreError(.sqlite, "injected failure before statement \(executed): \(sql)")
                            }
                        }
                    } else {
                        objectCounts = try droppedObjects(db: db, mapping: mapping, sourceLayout: sourceLayout)
                    }
                    let record: (MigrationStatement) throws -> Void = { statement in
                        executed += 1
                        if let limit = options.failAfterStatements, executed > limit {
                            throw StoreError(.sqlite, "injected failure before statement \(executed): \(statement.sql)")
                        }
                        if !statement.isTemporary { statements.append(statement) }
                    }
                    let runner = MigrationStepRunner(
                        db: db, mapping: mapping, sourceLayout: sourceLayout,
                        destinationLayout: StoreLayout(model: to.0.model, options: .init(propertyOrder: to.0.propertyOrder, indexStyle: style)),
                        sourceName: from.1, destinationName: to.1, prefix: "cdm\(index + 1)_", record: record)
                    try runner.run()
                    try mapped?.insertSplitObjects(db: db, destination: to.0.model, destinationLayout: runner.destinationLayout,
                                                   sourceLayout: sourceLayout, keyOffset: { runner.offsets[$0]?[$1] ?? 0 },
                                                   record: record)
                    try mapped?.validate(db: db, destinationLayout: runner.destinationLayout, destination: to.0.model)
                    let changes = ModelDiff.changes(from: from.0.model, to: to.0.model)
                    let changeTables = changes.map { change -> [String] in
                        var tables: [String] = []
                        if let entity = runner.destinationLayout.entity(named: change.entity) {
                            tables.append(entity.table)
                            if let subject = change.subject, case .joinTable(let table, _, _, _)? = entity.toManys[subject] { tables.append(table) }
                        }
                        if let entity = sourceLayout.entity(named: change.entity) { tables.append(entity.table) }
                        if change.kind == .entityRenamed, let old = change.detail?.replacingOccurrences(of: "was ", with: ""),
                           let entity = sourceLayout.entity(named: old) { tables.append(entity.table) }
                        return tables
                    }
                    steps.append(MigrationReport.Step(from: from.1, to: to.1, changes: changes, statements: statements,
                                                      renumberedEntities: runner.renumberedEntities, changeTables: changeTables,
                                                      mappingFile: mapped?.model.file, objectCounts: objectCounts))
                    sourceLayout = runner.destinationLayout
                }
                if let derived = DerivedValues(model: chain.last!.0.model, layout: sourceLayout),
                   try Int.fetchOne(db, sql: DerivedValues.coreDataTriggers) == nil {
                    for statement in derived.statements { try db.execute(sql: statement) }
                }
                // Metadata last: the store describes itself as the new model only once everything else is done.
                var updated = metadata
                try updated.setModel(chain.last!.0.model)
                warnings = try keepModel(chain.last!.0.model, in: db, metadata: &updated)
                try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = (SELECT MIN(Z_VERSION) FROM Z_METADATA)",
                               arguments: [try updated.encodedPlist()])
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(.sqlite, "the migration failed (Core Data error 134110): \(error.message ?? error.description); "
                             + "the store is unchanged").coreData(134110)
        }
        return MigrationReport(steps: steps, backupPath: nil, isDryRun: false, warnings: warnings)
    }

    /// The objects an inferred step drops: those of source entities no destination entity comes from.
    static func droppedObjects(db: Database, mapping: InferredMapping, sourceLayout: StoreLayout) throws -> [MappedObjectCount] {
        let kept = Set(mapping.entities.values)
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        var counts: [MappedObjectCount] = []
        for entity in mapping.source.entities where !kept.contains(entity.name) {
            guard let layout = sourceLayout.entity(named: entity.name), tables.contains(layout.table) else { continue }
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(layout.table) WHERE Z_ENT = ?", arguments: [layout.number]) ?? 0
            if rows > 0 {
                counts.append(MappedObjectCount(mapping: nil, sourceEntity: entity.name, destinationEntity: nil, taken: 0, created: 0,
                                                leftBehind: rows))
            }
        }
        return counts
    }

    static func copyStoreFiles(from path: String, to copy: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
    }

    /// Copies the store to `<path>.backup-<timestamp>` (with `-wal`/`-shm`), returning the copy's path.
    static func backUp(_ path: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var backup = "\(path).backup-\(formatter.string(from: Date()))"
        var counter = 1
        while FileManager.default.fileExists(atPath: backup) {
            counter += 1
            backup = "\(path).backup-\(formatter.string(from: Date()))-\(counter)"
        }
        do {
            try copyStoreFiles(from: path, to: backup)
        } catch {
            throw StoreError(.cannotOpen, "cannot back up the store to \(backup) before migrating: \(error)")
        }
        return backup
    }
}
