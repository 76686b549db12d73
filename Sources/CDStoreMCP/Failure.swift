import CDStore

/// Library errors as tool errors: named by the tool's argument (`where`, `having`, `sort`, `values`), a predicate
/// error quoting the predicate with a caret under its column.
enum Failure {
    /// Runs `body`, turning a ``CDStoreError`` into a ``ToolError``; `predicate` and `having` are the texts the
    /// call passed, quoted when an error points into them.
    static func mapping<T>(predicate: String? = nil, having: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CDStoreError {
            throw toolError(error, predicate: predicate, having: having)
        }
    }

    /// The tool error for a library error.
    static func toolError(_ error: CDStoreError, predicate: String? = nil, having: String? = nil) -> ToolError {
        let argument: String? = switch error.input {
        case .predicate?, .variables?: "where"
        case .having?: "having"
        case .sort?: "sort"
        case .properties?: "properties"
        case .groupBy?: "group_by"
        case .assignments?: "values"
        case .limit?: "limit"
        case .recordFile?, .root?, .mapping?: "values"
        default: nil
        }
        var message = error.message
        // The input quoted under the first line, with a caret under the column.
        var quoted = ""
        if let column = error.column, error.file == nil {
            message += " at column \(column)"
            let source = error.source ?? (argument == "having" ? having : argument == "where" ? predicate : nil)
            if let source, !source.contains("\n") {
                quoted = "\n  \(source)\n  " + String(repeating: " ", count: max(0, column - 1)) + "^"
            }
        }
        var place: [String] = []
        if let record = error.record { place.append("record \(record)") }
        if let entity = error.entity {
            place.append("entity '\(entity)'" + (error.property.map { ", \(error.isRelationship ? "relationship" : "attribute") '\($0)'" } ?? ""))
        } else if let property = error.property {
            place.append("'\(property)'")
        }
        if !place.isEmpty { message = place.joined(separator: ": ") + ": " + message }
        return ToolError(argument, message + " [\(error.code)]" + quoted)
    }
}

/// The opaque `cursor` of a page: the offset of the next object and a fingerprint of the query it belongs to,
/// so that a cursor passed with another query is refused rather than silently skipping objects.
enum PageCursor {
    /// A fingerprint of the query's parts (FNV-1a, 64 bits, in hex).
    static func fingerprint(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The cursor for the page starting at `offset`.
    static func make(offset: Int, for query: String) -> String { "\(offset).\(query)" }

    /// The offset a cursor of `query` holds.
    static func offset(of cursor: String, for query: String,
                       sameQuery: String = "entity, where and sort") throws(ToolError) -> Int {
        let parts = cursor.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let offset = Int(parts[0]), offset >= 0 else {
            throw ToolError("cursor", "'\(cursor.prefix(80))' is not a cursor this server returned")
        }
        guard parts[1] == query else {
            throw ToolError("cursor", "'\(cursor.prefix(80))' belongs to another query: pass the same \(sameQuery)")
        }
        return offset
    }
}
