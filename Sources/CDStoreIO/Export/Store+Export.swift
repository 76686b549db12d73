import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB
internal import GRDBSQLite

extension Store {
    /// Whether ``writeRecords(_:style:to:)`` can stream `request`: it selects objects of one concrete entity
    /// (no sub-entities with other columns) and nests no related objects (`includes`).
    package func canStreamRecords(_ request: ObjectFetchRequest) -> Bool {
        guard request.includes.isEmpty, let entity = model.entity(named: request.entity), !entity.isAbstract else {
            return false
        }
        return !request.includesSubentities || model.subtree(of: entity).count == 1
    }

    /// Writes the objects `request` selects to `sink`, framed by `style`, and returns how many were written.
    ///
    /// Rows are read from one SQLite statement and encoded straight into bytes, a batch of 256 at a time (one
    /// query per relationship and batch), so memory stays flat whatever the number of objects. The bytes are
    /// those the general path (``fetch(_:)`` and ``JSONText``/``ValueText``) prints for the same objects.
    /// Throws ``StoreError/Code/invalidInput`` when ``canStreamRecords(_:)`` is false.
    @discardableResult
    /// `progress` is called with the number of objects written so far, every few thousand objects.
    package func writeRecords(_ request: ObjectFetchRequest, style: RecordStyle, to sink: ByteSink,
                             progress: ((Int) -> Void)? = nil) throws -> Int {
        guard canStreamRecords(request) else {
            throw StoreError(.invalidInput, "this request cannot be streamed (sub-entities or relationships to prefetch)",
                             entity: request.entity).about(.includes)
        }
        let query = try QueryBuilder(store: self, request: request)
        let relationships = request.relationships == .none ? []
            : model.relationships(of: query.entity).filter { !$0.isTransient }
        let encoder = try RecordEncoder(query: query, entityNumber: query.entityLayout.number, style: style,
                                        relationships: relationships.map(\.name), store: self)
        if encoder.isCSV && !encoder.relationshipsTrail {
            throw StoreError(.invalidInput, "CSV columns must list relationships last to be streamed", entity: request.entity)
        }
        return try read { db in
            var writer = try RecordStreamWriter(store: self, db: db, encoder: encoder, style: style,
                                            relationships: relationships, output: request.relationships,
                                            out: ByteBuffer(sink: sink))
            let select = query.selectStatement()
            let statement = try db.makeStatement(sql: select.sql)
            try statement.setExactArguments(select.arguments)
            let raw = statement.sqliteStatement
            while true {
                let code = sqlite3_step(raw)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw StoreError(.sqlite, "SQLite error \(code): " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                try writer.row(raw, pk: sqlite3_column_int64(raw, 0))
                if let progress, writer.count % 4096 == 0 { progress(writer.count) }
            }
            try writer.finish()
            return writer.count
        }
    }
}

/// The loop state of ``Store/writeRecords(_:style:to:)``: framing, and the batch of rows waiting for their
/// relationship values.
struct RecordStreamWriter {
    let store: Store
    let db: Database
    let encoder: RecordEncoder
    let relationships: [Relationship]
    let output: RelationshipOutput
    let out: ByteBuffer
    private(set) var count = 0
    private let first: [UInt8], separator: [UInt8], terminator: [UInt8]
    private let storage: RelationshipStorage
    private let edges: [RelationshipStorage.Edge]
    /// `,"name":` per relationship (JSON).
    private let relationshipKeys: [[UInt8]]
    /// Heads of the batch's rows, back to back, and where each ends.
    private let heads: ByteBuffer
    private var headEnds: [Int] = []
    private var keys: [Int64] = []
    /// `x-coredata://UUID/Entity/p`, JSON-quoted, per entity number of related objects.
    private var prefixes: [Int: (json: [UInt8], plain: Bool)] = [:]
    static let batchSize = 256

    init(store: Store, db: Database, encoder: RecordEncoder, style: RecordStyle, relationships: [Relationship],
         output: RelationshipOutput, out: ByteBuffer) throws {
        self.store = store
        self.db = db
        self.encoder = encoder
        self.relationships = relationships
        self.output = output
        self.out = out
        heads = ByteBuffer(sink: out.sink)
        first = Array(style.first.utf8)
        separator = Array(style.separator.utf8)
        terminator = Array(style.terminator.utf8)
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        self.storage = storage
        relationshipKeys = relationships.map { Array(("," + JSONText.quoted($0.name) + ":").utf8) }
        edges = try relationships.map { try storage.edge($0.name, of: encoder.entityName) }
    }

    mutating func row(_ statement: OpaquePointer, pk: Int64) throws {
        if relationships.isEmpty {
            out.append(count == 0 ? first : separator)
            try encoder.writeHead(statement, pk: pk, to: out)
            out.append(encoder.isCSV ? Self.newline : Self.closeBrace)
            out.append(terminator)
            count += 1
            try out.flushIfFull()
            return
        }
        try encoder.writeHead(statement, pk: pk, to: heads)
        headEnds.append(heads.count)
        keys.append(pk)
        if keys.count == Self.batchSize { try flushBatch() }
    }

    mutating func finish() throws {
        try flushBatch()
        try out.flush()
    }

    /// Reads the batch's relationships (one query each) and writes its rows.
    private mutating func flushBatch() throws {
        guard !keys.isEmpty else { return }
        let related = try edges.map { try storage.related($0, of: keys, db: db) }
        var start = 0
        for (i, pk) in keys.enumerated() {
            out.append(count == 0 ? first : separator)
            out.append(heads, start..<headEnds[i])
            start = headEnds[i]
            if encoder.isCSV {
                for (column, cell) in encoder.cells.enumerated().dropFirst(encoder.csvHeadCount) {
                    if column > 0 { out.append(UInt8(ascii: ",")) }
                    guard case .relationship(let r) = cell else { continue }
                    writeRelationship(relationships[r], related[r][pk] ?? [])
                }
            } else {
                for (r, relationship) in relationships.enumerated() {
                    out.append(relationshipKeys[r])
                    writeRelationship(relationship, related[r][pk] ?? [])
                }
            }
            out.append(encoder.isCSV ? Self.newline : Self.closeBrace)
            out.append(terminator)
            count += 1
            try out.flushIfFull()
        }
        heads.discard()
        headEnds.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
    }

    /// A to-one as its object ID (or null), a to-many as an array of IDs or (``RelationshipOutput/counts``) a count.
    private mutating func writeRelationship(_ relationship: Relationship, _ targets: [ObjectRef]) {
        let json = !encoder.isCSV
        if relationship.isToMany && output == .counts {
            out.appendInteger(Int64(targets.count))
            return
        }
        if !relationship.isToMany {
            guard let target = targets.first else {
                if json { out.append(RecordEncoder.null) }
                return
            }
            let prefix = self.prefix(target.entityNumber)
            if json || !prefix.plain {
                guard json else {
                    RecordEncoder.writeObjectValue(.string(store.objectID(target).description), json: false, to: out)
                    return
                }
                out.append(prefix.json)
                out.appendInteger(target.pk)
                out.append(UInt8(ascii: "\""))
            } else {
                out.append(prefix.json.dropFirst())
                out.appendInteger(target.pk)
            }
            return
        }
        // CSV prints the JSON array as one quoted field, its quotes doubled.
        let quote: [UInt8] = json ? [UInt8(ascii: "\"")] : [UInt8(ascii: "\""), UInt8(ascii: "\"")]
        if !json && (targets.isEmpty || targets.contains { !prefix($0.entityNumber).plain }) {
            if !targets.isEmpty {
                RecordEncoder.writeObjectValue(.array(targets.map { .string(store.objectID($0).description) }),
                                               json: false, to: out)
            } else {
                out.append(Array("[]".utf8))
            }
            return
        }
        if !json { out.append(UInt8(ascii: "\"")) }
        out.append(UInt8(ascii: "["))
        for (i, target) in targets.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(quote)
            out.append(prefix(target.entityNumber).json.dropFirst())
            out.appendInteger(target.pk)
            out.append(quote)
        }
        out.append(UInt8(ascii: "]"))
        if !json { out.append(UInt8(ascii: "\"")) }
    }

    /// The opening quote and the ID prefix of objects of entity `number`; `plain` when the prefix needs neither
    /// JSON escapes nor CSV quoting, so both formats can copy it.
    private mutating func prefix(_ number: Int) -> (json: [UInt8], plain: Bool) {
        if let known = prefixes[number] { return known }
        let text = String(store.objectID(ObjectRef(pk: 1, entityNumber: number)).description.dropLast())
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
            && $0 != UInt8(ascii: ",") }
        let made = (Array(JSONText.quoted(text).utf8.dropLast()), plain)
        prefixes[number] = made
        return made
    }

    static let newline: [UInt8] = [0x0A]
    static let closeBrace: [UInt8] = [UInt8(ascii: "}")]
}
