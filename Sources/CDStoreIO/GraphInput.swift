import CDStoreJSON
import CDStoreEngine

/// Reads the two shapes an export of a whole graph has — the JSON graph document and NDJSON lines with
/// `_entity` — as records that name their entity, one at a time, for ``Store/importGraph(from:progress:)``.
///
/// ```swift
/// var source = try GraphInput.reader(try ByteStream(path: "graph.json"))
/// try store.importGraph(from: &source)
/// ```
package enum GraphInput {
    /// A reader of `stream`, whose shape is told by its first line: an NDJSON export's first line is a whole
    /// object with `"_entity"`; a graph document's is not (it opens `{"format":"cdstore-graph",…` and goes on).
    /// Errors are ``RecordInput/InputError``s.
    package static func reader(_ stream: ByteStream) throws -> any RecordSource {
        let firstLine = try Self.firstLine(of: stream)
        if firstLine.first(where: { $0 != 32 && $0 != 9 && $0 != 13 && $0 != 10 }) == UInt8(ascii: "[") {
            // What `export ENTITY` writes: the objects of one entity, which `insert` reads.
            throw RecordInput.InputError(message: "a JSON array is not a graph document (an export of one entity is an "
                                         + "array); insert it into its entity, or export the whole graph")
        }
        if case .object(let fields)? = try? JSONReader.parse(String(decoding: firstLine, as: UTF8.self)),
           fields.contains(where: { $0.0 == "_entity" }) {
            return EntityNamedRecords(records: NDJSONRecordReader(stream))
        }
        return GraphDocumentRecordReader(stream)
    }

    /// The bytes of the first line of `stream`, read but not consumed (at most 16 MiB are looked at).
    private static func firstLine(of stream: ByteStream) throws -> [UInt8] {
        while true {
            let window = stream.window
            if let end = window.firstIndex(of: 10) { return Array(window[..<end]) }
            if try window.count >= 16 << 20 || !stream.fill() { return Array(stream.window) }
        }
    }
}

/// NDJSON records, each of which must name its entity.
struct EntityNamedRecords<Records: RecordSource>: RecordSource {
    var records: Records

    mutating func next() throws -> InputRecord? {
        guard let record = try records.next() else { return nil }
        guard record.entityName != nil else {
            throw RecordInput.InputError(message: "each line needs \"_entity\"", line: record.line)
        }
        return record
    }

    var position: InputPosition { records.position }
}

/// The objects of a graph document (`{"format": "cdstore-graph", "formatVersion": 1, "storeUUID": …,
/// "entities": {"Entity": [objects…], …}}`), streamed one object at a time, each named by its entity's key.
struct GraphDocumentRecordReader: RecordSource {
    private enum State {
        case start
        case documentKeys
        case entityKeys
        case objects(entity: String, first: Bool)
        case done
    }

    private var reader: JSONReader
    private var state = State.start
    private var format: String?

    init(_ stream: ByteStream) { reader = JSONReader(stream) }

    var position: InputPosition {
        InputPosition(bytesRead: reader.stream.consumed, totalBytes: reader.stream.totalBytes)
    }

    mutating func next() throws -> InputRecord? {
        do {
            return try nextRecord()
        } catch let error as JSONSyntaxError {
            state = .done
            throw RecordInput.InputError(message: error.description)
        }
    }

    private mutating func nextRecord() throws -> InputRecord? {
        while true {
            switch state {
            case .start:
                guard try reader.peek() == UInt8(ascii: "{") else { throw reader.error("expected a graph document object") }
                reader.skipByte()
                state = .documentKeys
                if try reader.peek() == UInt8(ascii: "}") { reader.skipByte(); try finish() }
            case .documentKeys:
                let key = try reader.readMemberKey()
                if key == "entities" {
                    guard try reader.peek() == UInt8(ascii: "{") else {
                        throw RecordInput.InputError(message: "the graph document has no \"entities\" object")
                    }
                    reader.skipByte()
                    state = .entityKeys
                    if try reader.peek() == UInt8(ascii: "}") { reader.skipByte(); try afterMember(of: .documentKeys) }
                } else {
                    let value = try reader.readValue(depth: 1)
                    if key == "format", case .string(let text) = value { format = text }
                    if key == "format" && format != "cdstore-graph" {
                        throw RecordInput.InputError(message: "not a cdstore graph document (\"format\" must be \"cdstore-graph\")")
                    }
                    try afterMember(of: .documentKeys)
                }
            case .entityKeys:
                let entity = try reader.readMemberKey()
                guard try reader.peek() == UInt8(ascii: "[") else {
                    throw RecordInput.InputError(message: "\"\(entity)\" must be an array of objects")
                }
                reader.skipByte()
                state = .objects(entity: entity, first: true)
            case .objects(let entity, let first):
                let next = try reader.peek()
                if next == UInt8(ascii: "]") {
                    reader.skipByte()
                    try afterMember(of: .entityKeys)
                    continue
                }
                if !first {
                    guard next == UInt8(ascii: ",") else { throw reader.error("expected ',' or ']'") }
                    reader.skipByte()
                    if try reader.peek() == UInt8(ascii: "]"), reader.options.allowsTrailingCommas {
                        reader.skipByte()
                        try afterMember(of: .entityKeys)
                        continue
                    }
                }
                state = .objects(entity: entity, first: false)
                let line = reader.line
                guard case .object(let fields) = try reader.readValue(depth: 3) else {
                    throw RecordInput.InputError(message: "line \(line): \(entity) objects must be JSON objects")
                }
                return InputRecord(fields: fields.filter { $0.0 != "_entity" }, line: line, entityName: entity)
            case .done:
                return nil
            }
        }
    }


    /// After a member of an object: a comma and the next member (`state`), or the object's end.
    private mutating func afterMember(of object: State) throws {
        switch try reader.peek() {
        case UInt8(ascii: ","):
            reader.skipByte()
            state = object
            if try reader.peek() == UInt8(ascii: "}"), reader.options.allowsTrailingCommas {
                try afterMember(of: object)
            }
        case UInt8(ascii: "}"):
            reader.skipByte()
            if case .entityKeys = object {
                state = .documentKeys
                try afterMember(of: .documentKeys)
            } else {
                try finish()
            }
        default:
            throw reader.error("expected ',' or '}'")
        }
    }

    private mutating func finish() throws {
        try reader.expectEnd()
        state = .done
        guard format == "cdstore-graph" else {
            throw RecordInput.InputError(message: "not a cdstore graph document (\"format\" must be \"cdstore-graph\")")
        }
    }
}
