import CDStoreJSON
import CDStoreModel
import CDStoreEngine

/// Reads JSON records: a top-level array streamed element by element, or a single object as one record. Each
/// record knows the line it starts on.
///
/// A syntax error ends reading (`malformed JSON at line 2, column 9: …`): after it, where the next element starts
/// cannot be trusted. An element that is not an object spoils only itself.
package struct JSONRecordReader: RecordSource {
    private enum State {
        case start
        case firstElement
        case moreElements
        case done
    }

    private var reader: JSONReader
    private var state = State.start
    private var count = 0
    /// The key path of the records inside the document (`--root response.venues`); empty: the document itself.
    private let root: [String]

    /// Prepares to read `stream`; the records are the array (or the one object) at the key path `root` inside
    /// the document (API responses keep them in an envelope: `{"meta": …, "response": {"venues": […]}}`).
    /// Everything around them is still read, so the whole document must be valid JSON.
    package init(_ stream: ByteStream, root: [String] = []) {
        reader = JSONReader(stream)
        self.root = root
    }

    package mutating func next() throws -> InputRecord? {
        do {
            return try nextRecord()
        } catch let error as JSONSyntaxError {
            state = .done
            throw RecordInput.InputError(message: error.description)
        }
    }

    package var position: InputPosition {
        InputPosition(bytesRead: reader.stream.consumed, totalBytes: reader.stream.totalBytes)
    }

    private mutating func nextRecord() throws -> InputRecord? {
        switch state {
        case .start:
            if !root.isEmpty { try descendToRoot() }
            if try reader.peek() == UInt8(ascii: "[") {
                reader.skipByte()
                state = .firstElement
                return try nextRecord()
            }
            state = .done
            let line = reader.line
            let value = try reader.readValue(depth: root.count)
            if !root.isEmpty, case .object = value {} else if !root.isEmpty {
                throw rootError("\(rootText): the value there is \(Self.kind(value)), not an array or an object")
            }
            try closeEnclosingObjects()
            return try RecordInput.record(value, line: line, number: 1)
        case .firstElement:
            if try reader.peek() == UInt8(ascii: "]") {
                try finish()
                return nil
            }
            state = .moreElements
            return try element()
        case .moreElements:
            switch try reader.peek() {
            case UInt8(ascii: ","):
                reader.skipByte()
                if reader.options.allowsTrailingCommas, try reader.peek() == UInt8(ascii: "]") {
                    try finish()
                    return nil
                }
                return try element()
            case UInt8(ascii: "]"):
                try finish()
                return nil
            default:
                throw reader.error("expected ',' or ']'")
            }
        case .done:
            return nil
        }
    }

    private mutating func element() throws -> InputRecord {
        _ = try reader.peek()  // to the element's first byte, so that `line` is its line
        let line = reader.line
        let value = try reader.readValue(depth: 1)
        count += 1
        return try RecordInput.record(value, line: line, number: count)
    }

    private mutating func finish() throws {
        reader.skipByte()
        state = .done
        try closeEnclosingObjects()
    }

    private var rootText: String { root.joined(separator: ".") }

    /// An error about the root key path (``ErrorInput/root``), which its description names.
    private func rootError(_ message: String) -> RecordInput.InputError {
        var error = RecordInput.InputError(message: message)
        error.input = .root
        return error
    }

    /// Reads from the document's start to the value at ``root``, skipping the members before it.
    private mutating func descendToRoot() throws {
        for (level, key) in root.enumerated() {
            let place = level == 0 ? "the document" : "'" + root[..<level].joined(separator: ".") + "'"
            guard try reader.peek() == UInt8(ascii: "{") else {
                let found = try reader.peek() == UInt8(ascii: "[") ? "an array" : "not an object"
                throw rootError("\(rootText): \(place) is \(found), so it has no key '\(key)'")
            }
            reader.skipByte()
            var keys: [String] = []
            while true {
                if try reader.peek() == UInt8(ascii: "}") {
                    let seen = keys.isEmpty ? "it is empty" : "its keys are " + keys.prefix(10).joined(separator: ", ")
                        + (keys.count > 10 ? ", …" : "")
                    throw rootError("\(rootText): \(place) has no key '\(key)' (\(seen))")
                }
                let name = try reader.readMemberKey()
                if name == key { break }
                keys.append(name)
                _ = try reader.readValue(depth: level + 1)
                try afterMember()
            }
        }
    }


    /// After a member: its comma (and a trailing comma's closing brace is left for the caller to see).
    private mutating func afterMember() throws {
        switch try reader.peek() {
        case UInt8(ascii: ","): reader.skipByte()
        case UInt8(ascii: "}"): break
        default: throw reader.error("expected ',' or '}'")
        }
    }

    /// After the records: the rest of each object around them, then the document's end.
    private mutating func closeEnclosingObjects() throws {
        for level in stride(from: root.count, to: 0, by: -1) {
            try afterMember()
            while try reader.peek() != UInt8(ascii: "}") {
                _ = try reader.readMemberKey()
                _ = try reader.readValue(depth: level)
                try afterMember()
            }
            reader.skipByte()
        }
        try reader.expectEnd()
    }

    private static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        default: "a number"
        }
    }
}
