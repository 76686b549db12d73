import CDStoreJSON
import CDStoreModel
import Foundation
package import GRDB

extension Store {
    /// Opens the store at `path` with `model`; see ``open(at:loaded:options:)``.
    package static func open(at path: String, model: ManagedObjectModel?, options: Options = .init()) throws -> Store {
        try open(at: path, loaded: model.map { LoadedModel(model: $0, file: URL(fileURLWithPath: path), format: .json) },
                 options: options)
    }

    /// Opens the store at `path`, creating it for `loaded` when the file does not exist.
    ///
    /// Version hashes decide, as in Core Data: an existing store must have been saved with a model whose entity
    /// hashes equal `loaded`'s (otherwise ``StoreError/Code/modelMismatch``, Core Data's error 134100). With no
    /// model, the store's own is used: the model cached in `Z_MODELCACHE` (which cdstore writes too), or the JSON
    /// model earlier cdstore versions kept in the metadata when the store has no cache matching its hashes; when
    /// there is neither (Core Data would fail with 134130), a model inferred from the tables, which reads but
    /// refuses writes (``ModelSource/inferredFromTables``, ``InferredModel``).
    package static func open(at path: String, loaded: LoadedModel?, options: Options = .init()) throws -> Store {
        try open(at: path, loaded: loaded, options: options, adopting: nil)
    }

    /// ``open(at:loaded:options:)``, the store then owning `adoptedCopy` (a private copy made by the caller, which
    /// `path` names), which is removed with it.
    static func open(at path: String, loaded: LoadedModel?, options: Options, adopting adoptedCopy: PrivateStoreCopy?) throws -> Store {
        if let loaded { try refuseUnsafeNames(loaded.model) }
        guard FileManager.default.fileExists(atPath: path) else {
            guard options.createIfMissing, !options.readOnly, !options.immutable else {
                throw StoreError(.cannotOpen, "no store at \(path)")
            }
            guard let loaded else {
                throw StoreError(.cannotOpen, "no store at \(path) (a model is needed to create one)").about(.model)
            }
            return try create(at: path, loaded: loaded, uuid: options.uuid, busyTimeout: options.busyTimeout,
                              readsMissingExternalDataAsNull: options.readsMissingExternalDataAsNull)
        }
        let readOnly = options.readOnly || options.immutable || !FileManager.default.isWritableFile(atPath: path)
        if readOnly && !options.immutable { rollBackHotJournal(at: path, busyTimeout: options.busyTimeout) }
        let database: DatabaseQueue
        var privateCopy: PrivateStoreCopy?
        do {
            let configuration = configuration(readOnly: readOnly, busyTimeout: options.busyTimeout)
            if options.immutable {
                (database, privateCopy) = try openImmutable(at: path, configuration: configuration)
            } else {
                database = try DatabaseQueue(path: path, configuration: configuration)
            }
            _ = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        } catch {
            throw StoreError(.cannotOpen, "\(path) is not a SQLite database (\(Self.describe(error)))")
        }
        var metadata = try readMetadata(database, path: path)
        var warnings: [StoreWarning] = []
        var loaded = loaded
        if let given = loaded, metadata.plist != nil, !metadata.hashDifferences(from: given.model).isEmpty {
            guard let migrator = options.migrator else {
                let mismatch = ModelMismatch(metadata: metadata, database: database, given: given, path: path)
                throw StoreError(.modelMismatch, mismatch.message(reason: " and migration is off")).coreData(134100)
                    .about(.migration)
            }
            if readOnly {
                // A read-only open never migrates: it reads with the version of the given bundle the store was saved
                // with. A store whose model is not a version of the given one is refused, as Core Data refuses it.
                guard let source = try? sourceModel(metadata: metadata, database: database, destination: given, path: path),
                      source.versionIndex != nil else {
                    let mismatch = ModelMismatch(metadata: metadata, database: database, given: given, path: path)
                    throw StoreError(.modelMismatch, mismatch.message(
                        advice: "open it without a model to use its own, or migrate it")).about(.model)
                }
                warnings.append(StoreWarning(.readWithOlderVersion, "the store was saved with \(source.name), not "
                                             + "with the model given; read with that version, without migrating"))
                loaded = source.loaded
            } else {
                let outcome = try migrator.migrate(database: database, path: path, metadata: metadata, destination: given,
                                                   backup: options.backup)
                metadata = try readMetadata(database, path: path)
                warnings.append(StoreWarning(.migrated, "migrated the store (\(outcome.steps.joined(separator: ", ")))"
                                             + (outcome.backupPath.map { "; backup at \($0)" } ?? "")))
            }
        }
        let resolved = try resolveModel(loaded, metadata: metadata, database: database, path: path, warnings: &warnings)
        let model = resolved.model
        try refuseUnsafeNames(model)
        let layout: StoreLayout
        if let inferred = resolved.layout {
            layout = inferred
        } else {
            let frameworkVersion = metadata.persistenceFrameworkVersion ?? StoreMetadata.frameworkVersion
            let computed = StoreLayout(model: model, options: .init(propertyOrder: resolved.propertyOrder,
                                                                    indexStyle: .forFrameworkVersion(frameworkVersion)))
            let numbers = try database.read { db in try storeNumbers(db, model: model) }
            layout = try computed.renumbered(byStoreNumbers: numbers) ?? computed
        }
        try registerTriggerFunctions(database)
        return Store(path: path, model: model, layout: layout, metadata: metadata, database: database, wasCreated: false,
                     isReadOnly: readOnly, modelSource: resolved.source, warnings: warnings, busyTimeout: options.busyTimeout,
                     readsMissingExternalDataAsNull: options.readsMissingExternalDataAsNull, isImmutable: options.immutable,
                     privateCopy: privateCopy ?? adoptedCopy)
    }

    /// Core Data makes tables and columns of entity and property names, unquoted: a name that is not a plain
    /// identifier (which Xcode refuses too) would become SQL text, so such a model is refused before any SQL.
    static func refuseUnsafeNames(_ model: ManagedObjectModel) throws {
        guard let (entity, property) = NameRules.unsafeName(in: model) else { return }
        throw StoreError(.invalidInput, "'\(property ?? entity)' is not a name Core Data accepts (letters, digits and _, "
                         + "starting with a letter): `cdstore model validate` lists every such name", entity: entity,
                         property: property)
    }

    /// The entity numbers of `Z_PRIMARYKEY` by name. Core Data does not rename the row of an entity it renamed in
    /// a migration (a real store keeps the old name), so an entity of `model` missing from it takes the number
    /// of its renaming identifier's row, when no entity of `model` has that name.
    static func storeNumbers(_ db: Database, model: ManagedObjectModel) throws -> [String: Int] {
        var numbers = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            .reduce(into: [String: Int]()) { $0[$1["Z_NAME"] ?? ""] = $1["Z_ENT"] }
        for entity in model.entities where numbers[entity.name] == nil {
            if let old = entity.renamingIdentifier, model.entity(named: old) == nil, let number = numbers[old] {
                numbers[entity.name] = number
            }
        }
        return numbers
    }

    /// What ``resolveModel(_:metadata:database:path:warnings:)`` decided.
    private struct ResolvedModel {
        var model: ManagedObjectModel
        var source: ModelSource
        var propertyOrder: [String: [String]] = [:]
        /// The layout, when the model was inferred from the tables (it maps onto them as they are).
        var layout: StoreLayout? = nil
    }

    /// The model to use: the one given (its hashes must match the store's), `Z_MODELCACHE` or an earlier cdstore's
    /// JSON model (the cache first when it matches the store's hashes, ``modelCacheSupersedesJSON(_:metadata:path:)``),
    /// or — when the store carries neither (none, NULL, empty or unreadable) — a model inferred from its tables,
    /// with one warning saying so.
    private static func resolveModel(_ loaded: LoadedModel?, metadata: StoreMetadata, database: DatabaseQueue, path: String,
                                     warnings: inout [StoreWarning]) throws -> ResolvedModel {
        if let loaded {
            if metadata.plist == nil {
                warnings.append(StoreWarning(.metadataUnreadable,
                                             "the store's metadata plist is NULL, so its model cannot be checked against the one given"))
            } else {
                let differences = metadata.hashDifferences(from: loaded.model)
                guard differences.isEmpty else {
                    throw StoreError(.modelMismatch, "the store was saved with a different model (Core Data error 134100): "
                                     + "entity hashes differ for \(differences.joined(separator: ", "))").coreData(134100)
                }
            }
            return ResolvedModel(model: loaded.model, source: .given, propertyOrder: loaded.propertyOrder)
        }
        if let cached = metadata.cachedModel, !modelCacheSupersedesJSON(database, metadata: metadata, path: path) {
            return ResolvedModel(model: try JSONModelCodec.decode(cached, file: URL(fileURLWithPath: path)).model,
                                 source: .cdstoreCache)
        }
        let (hasCache, blob): (Bool, Data?) = try database.read { db in
            guard try db.hasTable("Z_MODELCACHE") else { return (false, nil) }
            return (true, try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1"))
        }
        guard let blob, !blob.isEmpty else {
            let reason = hasCache ? "the store's Z_MODELCACHE is empty" : "the store carries no model (no Z_MODELCACHE)"
            return try inferModel(database, reason: reason, warnings: &warnings)
        }
        let cache: LoadedModel
        do {
            cache = try ModelCacheDecoder.decode(blob, file: URL(fileURLWithPath: path + "#Z_MODELCACHE"))
        } catch {
            return try inferModel(database, reason: "the model cached in Z_MODELCACHE cannot be read (\(error))",
                                  warnings: &warnings)
        }
        warnings += cache.warnings.map { StoreWarning(.modelFileSkipped, $0, input: .model) }
        if metadata.plist != nil, !metadata.hashDifferences(from: cache.model).isEmpty {
            warnings.append(StoreWarning(.staleModelCache,
                                         "the model in Z_MODELCACHE does not match the store's version hashes; using it anyway"))
        }
        return ResolvedModel(model: cache.model, source: .coreDataCache, propertyOrder: cache.propertyOrder)
    }

    /// The model read back from the tables, with the one warning line that says so.
    private static func inferModel(_ database: DatabaseQueue, reason: String, warnings: inout [StoreWarning]) throws -> ResolvedModel {
        let inferred = try database.read { db in try TableModelInference.infer(db) }
        let line = "\(reason) and none was given: the model was inferred from the tables (names as the columns give "
            + "them); reading works"
        warnings.append(StoreWarning(.modelInferred, line.split(whereSeparator: \.isNewline).joined(separator: " "),
                                     input: .model))
        return ResolvedModel(model: inferred.model, source: .inferredFromTables, layout: inferred.layout)
    }

    /// The store's `Z_METADATA` row (UUID and metadata plist); a file without Core Data's tables is refused.
    package static func readMetadata(_ database: DatabaseQueue, path: String) throws -> StoreMetadata {
        do {
            return try database.read { db in
                guard try db.hasTable("Z_METADATA"), try db.hasTable("Z_PRIMARYKEY") else {
                    throw StoreError(.cannotOpen, "\(path) is not a Core Data store (no Z_METADATA or Z_PRIMARYKEY table)")
                }
                guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") else {
                    throw StoreError(.cannotOpen, "\(path) has an empty Z_METADATA table")
                }
                return try StoreMetadata.decode(uuid: row["Z_UUID"] ?? "", plist: row["Z_PLIST"])
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "cannot read \(path): \(describe(error))")
        }
    }

    /// Core Data's triggers (derived attributes, persistent history) call functions Core Data registers on its
    /// own connections; without them any write to those tables fails (``CoreDataTriggerFunctions``). cdstore
    /// records persistent history with its own temporary triggers (``HistoryRecorder``,
    /// docs/decisions/0009-persistent-history-writes.md).
    private static func registerTriggerFunctions(_ database: DatabaseQueue) throws {
        let triggers = try database.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL")
        }
        guard !triggers.isEmpty else { return }
        let call = try NSRegularExpression(pattern: #"\b(NS[A-Za-z0-9_]*|_?CD[A-Za-z0-9_]*)\s*\("#)
        var names: Set<String> = []
        for sql in triggers {
            for match in call.matches(in: sql, range: NSRange(sql.startIndex..., in: sql)) {
                if let range = Range(match.range(at: 1), in: sql) { names.insert(String(sql[range])) }
            }
        }
        database.writeWithoutTransaction { db in CoreDataTriggerFunctions.register(names, on: db) }
    }

    /// SQLite's own message for `error`, for the error cdstore throws in its place.
    package static func describe(_ error: Error) -> String {
        (error as? DatabaseError)?.message ?? String(describing: error)
    }
}
