import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// Inserts `records` as new objects of `entityName` (or of the sub-entity a record names with `"_entity"`),
    /// with every object nested in them, all in one transaction: either everything is stored or nothing is.
    /// Returns the number of records stored. See ``insert(from:into:options:)``.
    @discardableResult
    package func insert(_ records: some Sequence<InputRecord>, into entityName: String, options: InsertSettings = .init()) throws -> Int {
        var source = SequenceRecordSource(records)
        return try insert(from: &source, into: entityName, options: options).inserted
    }

    /// Inserts the records `source` reads, one at a time as they are read, as new objects of `entityName` (or of
    /// the sub-entity a record names with `"_entity"`), with every object nested in them, in one transaction.
    ///
    /// In a record, an attribute takes a value; a to-one relationship a nested object (a new related object), an
    /// object ID (`x-coredata://…/Entity/p3`), `{"_ref": {"name": "Ann"}}` (the one existing object with those
    /// attribute values) or null; a to-many relationship an array of those. Missing attributes take the model's
    /// default. Every record is converted and validated against the model before the transaction commits:
    /// attribute rules, uniqueness constraints (merged into the existing object with ``InsertSettings/upsert``),
    /// relationship optionality and counts. The first invalid record stops the insert and nothing is written, unless
    /// ``InsertSettings/skipInvalid`` is set: then each invalid record is rolled back alone and reported, and its
    /// relationship rules are checked as soon as it is stored rather than at the end.
    ///
    /// Memory stays flat in the number of records: nothing is kept per new object.
    ///
    /// Core Data equivalent: `NSEntityDescription.insertNewObject(forEntityName:into:)` for each object, then
    /// `save()`.
    ///
    /// A source that reads a regular file or text in memory (``InputPosition/totalBytes`` known, so reading never
    /// waits on a pipe) of at least ``BulkLoadSettings/readAheadBytes`` is read ahead on a second thread
    /// (``ReadAhead``), which also converts and checks the values of the objects it reads (``RecordPreparer``), while
    /// this one looks up, binds and writes; flat rows go ``EntityWritePlan/rowsPerBatch`` to a statement. From
    /// ``BulkLoadSettings/deferredIndexBytes`` on, the plain indexes of the tables it starts empty are built after
    /// the rows (``DeferredIndexes``).
    @discardableResult
    package func insert<Source: RecordSource>(from source: inout Source, into entityName: String,
                                              options: InsertSettings = .init()) throws -> InsertSummary {
        let entity = try resolveEntity(entityName)
        guard let size = source.position.totalBytes, size >= BulkLoadSettings.readAheadBytes, BulkLoadSettings.readsAhead else {
            return try insert(items: { try source.next().map(SourceItem.record) }, position: { source.position },
                              into: entity, options: options, isBulk: false)
        }
        let preparer = BulkLoadSettings.preparesAhead ? try RecordPreparer(entity: entity, store: self, options: options) : nil
        let reader = ReadAhead(source, preparer: preparer)
        defer {
            // The reader hands back the source it was given.
            if let finished = reader.finish() as? Source { source = finished }
        }
        var ahead = ReadAheadRecordSource(reader, position: source.position)
        return try insert(items: { try ahead.nextItem() }, position: { ahead.position }, into: entity, options: options,
                          isBulk: size >= BulkLoadSettings.deferredIndexBytes)
    }

    /// Inserts the records `items` gives (nil at the end) in one transaction; `position` tells progress how far
    /// the input has been read. A bulk insert builds the plain indexes of tables it starts empty after their rows
    /// (``DeferredIndexes``; not while skipping invalid records, whose rules are checked record by record).
    private func insert(items nextItem: () throws -> SourceItem?, position: () -> InputPosition, into entity: Entity,
                        options: InsertSettings, isBulk: Bool) throws -> InsertSummary {
        return try write { db in
            var inserter = GraphInserter(store: self, db: db, options: options)
            if isBulk && !options.skipInvalid && BulkLoadSettings.defersIndexes {
                inserter.deferredIndexes = try DeferredIndexes(tables: Set(layout.entities.map(\.table)), db: db)
            }
            let validation = GraphValidation(store: self, db: db)
            var summary = InsertSummary(inserted: 0, skipped: 0)
            var number = 0
            func skip(_ line: Int?, _ error: StoreError) {
                summary.skipped += 1
                options.onSkip?(SkippedRecord(record: number, line: line, error: error))
            }
            // A record as read (with its objects' rows when they were prepared), in a savepoint of its own when invalid
            // records are skipped.
            func insertRecord(_ record: InputRecord, prepared rows: PreparedObjectRows?) throws {
                if options.skipInvalid {
                    let before = inserter.allocator.next
                    try db.execute(sql: "SAVEPOINT cdstore_record")
                    do {
                        let object = try inserter.insert(record.fields, as: entity, entityName: record.entityName, prepared: rows)
                        try validation.validateNew(from: before, to: inserter.allocator.next)
                        try db.execute(sql: "RELEASE cdstore_record")
                        inserter.keepTouched()
                        summary.inserted += 1
                        options.onInsert?(objectID(object))
                    } catch let error as StoreError {
                        try db.execute(sql: "ROLLBACK TO cdstore_record; RELEASE cdstore_record")
                        inserter.forgetTouched()
                        var located = error
                        located.record = nil
                        located.line = nil
                        skip(record.line, located)
                    }
                } else {
                    let object: ObjectRef
                    do {
                        object = try inserter.insert(record.fields, as: entity, entityName: record.entityName, prepared: rows)
                    } catch let error as StoreError {
                        throw error.at(record: number, line: record.line)
                    }
                    inserter.keepTouched()
                    summary.inserted += 1
                    options.onInsert?(objectID(object))
                }
            }
            while true {
                let item: SourceItem
                do {
                    guard let next = try nextItem() else { break }
                    item = next
                    number += 1
                } catch let error as SkippableRecordError where options.skipInvalid && error.isSkippable {
                    number += 1
                    skip(error.line, StoreError(.invalidInput, error.message))
                    continue
                }
                switch item {
                case .prepared(let prepared):
                    // Converted and checked on the reading thread (never under skipInvalid): one INSERT.
                    let object = try inserter.insert(prepared: prepared.row, as: entity, record: number, line: prepared.line)
                    summary.inserted += 1
                    options.onInsert?(objectID(object))
                case .record(let record):
                    try insertRecord(record, prepared: nil)
                case .graph(let record, let rows):
                    try insertRecord(record, prepared: rows)
                }
                if number % 4096 == 0 {
                    options.progress?(InsertProgress(records: number, input: position(), isFinished: false))
                }
            }
            try inserter.writePrepared()
            try inserter.deferredIndexes?.restore(db: db)
            options.progress?(InsertProgress(records: number, input: position(), isFinished: true))
            if !options.skipInvalid { try validation.validateNew(from: inserter.allocator.first, to: inserter.allocator.next) }
            try validation.validate(inserter.touched)
            try bumpOptimisticLockVersions(inserter.touched, db: db)
            try inserter.allocator.save(db)
            if summary.inserted >= Self.bulkLoadSize { try refreshStatistics(of: inserter.tables, db: db) }
            summary.ignoredKeys = inserter.ignoredKeys.summary
            return summary
        }
    }

    /// From this many records on, an insert refreshes the query planner's statistics of the tables it filled.
    static let bulkLoadSize = 10_000

    /// `ANALYZE` of `tables`, sampled (`analysis_limit`) so that it costs milliseconds: after a bulk load the
    /// planner otherwise keeps judging indexes by the table's old size.
    func refreshStatistics(of tables: Set<String>, db: Database) throws {
        try db.execute(sql: "PRAGMA analysis_limit = 1000")
        for table in tables.sorted() { try db.execute(sql: "ANALYZE \(table)") }
    }

    /// The entity called `name`, or an error that suggests the nearest name.
    package func resolveEntity(_ name: String) throws -> Entity {
        guard let entity = model.entity(named: name) else {
            throw StoreError(.unknownName, "no entity '\(name)' in the model"
                             + Suggestion.didYouMean(name, among: model.entities.map(\.name)))
        }
        return entity
    }
}

/// Hands out primary keys as Core Data does: `Z_MAX` of the root entity's `Z_PRIMARYKEY` row, plus one. Keys are
/// handed out in increasing order within the write transaction, so the objects it created are exactly those of
/// each inheritance tree whose key is at least the first one handed out (``isNew(_:)``).
struct PrimaryKeyAllocator {
    /// The next key to hand out, per root entity number.
    var next: [Int: Int64] { Dictionary(uniqueKeysWithValues: state.indices.compactMap { root in state[root].map { (root, $0.next) } }) }
    /// The first key handed out by this allocator, per root entity number.
    var first: [Int: Int64] { Dictionary(uniqueKeysWithValues: state.indices.compactMap { root in state[root].map { (root, $0.first) } }) }
    /// The root entity number of each entity number (entity numbers are small: arrays beat hashing per record).
    private let roots: [Int]
    private var state: [(first: Int64, next: Int64)?]

    init(layout: StoreLayout) {
        let size = (layout.entities.map(\.number).max() ?? 0) + 1
        var roots = Array(0..<size)
        for entity in layout.entities { roots[entity.number] = layout.entity(named: entity.rootName)?.number ?? entity.number }
        self.roots = roots
        state = Array(repeating: nil, count: size)
    }

    /// The next key for an object of the entity numbered `entityNumber`, whose rows are in `table`.
    mutating func next(entityNumber: Int, table: String, db: Database) throws -> Int64 {
        let root = entityNumber < roots.count ? roots[entityNumber] : entityNumber
        if root >= state.count { state += Array(repeating: nil, count: root + 1 - state.count) }
        if let current = state[root] {
            state[root] = (current.first, current.next + 1)
            return current.next
        }
        let max = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
        // Z_MAX can lag behind rows written by other tools; never hand out a key that exists.
        let existing = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table)") ?? 0
        let key = Swift.max(max, existing) + 1
        state[root] = (key, key + 1)
        return key
    }

    /// Whether this allocator handed out the key of `object`.
    func isNew(_ object: ObjectRef) -> Bool {
        guard object.entityNumber < roots.count, let current = state[roots[object.entityNumber]] else { return false }
        return object.pk >= current.first
    }

    func save(_ db: Database) throws {
        for (root, current) in state.enumerated() {
            guard let current else { continue }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [current.next - 1, root])
        }
    }
}
