import Foundation

/// What the server reads from a request, parsed and bounded before anything touches the store: the path's
/// segments, the query's parameters, and whether JSON was asked for.
///
/// Every limit here answers an oversized or malformed request with a 4xx before any work is done.
struct BrowseRequest: Sendable {
    /// Longest request target accepted (path and query).
    static let maximumTargetLength = 8192
    /// Longest predicate accepted in `where`.
    static let maximumPredicateLength = 2000
    /// Most objects on one page, and the default.
    static let maximumPageSize = 500
    static let defaultPageSize = 50
    /// Most query parameters accepted.
    static let maximumParameters = 32

    /// The path's segments, percent-decoded (`/Employee/p3` → `["Employee", "p3"]`).
    var segments: [String]
    /// The raw path (for object-ID URIs, whose `//` a segment split would lose).
    var rawPath: String
    /// Query parameters, percent- and `+`-decoded, last one winning.
    var query: [String: String]
    /// Every value of each query parameter, in order (`facet=a&facet=b`).
    var queryValues: [String: [String]]
    /// Whether the answer should be JSON: a `.json` suffix (removed from the last segment) or an `Accept` header
    /// that prefers `application/json`.
    var wantsJSON: Bool

    /// Parses a request target (`/path?query`) and its `Accept` header.
    init(target: String, accept: String?) throws {
        guard target.utf8.count <= Self.maximumTargetLength else {
            throw BrowseError(.uriTooLong, "the request target is \(target.utf8.count) bytes long; at most "
                              + "\(Self.maximumTargetLength) are accepted")
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        rawPath = String(parts.first ?? "/")
        guard rawPath.hasPrefix("/") else { throw BrowseError(.badRequest, "the request target must start with /") }
        guard let decodedPath = Self.percentDecoded(rawPath, plusIsSpace: false) else {
            throw BrowseError(.badRequest, "the path is not valid percent-encoded UTF-8")
        }
        var segments = decodedPath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var wantsJSON = false
        if let last = segments.last, last.hasSuffix(".json"), last.count > 5 {
            segments[segments.count - 1] = String(last.dropLast(5))
            wantsJSON = true
        }
        if let accept, Self.prefersJSON(accept) { wantsJSON = true }
        self.segments = segments
        self.wantsJSON = wantsJSON
        query = [:]
        queryValues = [:]
        if parts.count == 2 {
            let pairs = parts[1].split(separator: "&", omittingEmptySubsequences: true)
            guard pairs.count <= Self.maximumParameters else {
                throw BrowseError(.badRequest, "the query has \(pairs.count) parameters; at most \(Self.maximumParameters) are accepted")
            }
            for pair in pairs {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = Self.percentDecoded(String(keyValue[0]), plusIsSpace: true),
                      let value = Self.percentDecoded(keyValue.count > 1 ? String(keyValue[1]) : "", plusIsSpace: true) else {
                    throw BrowseError(.badRequest, "the query is not valid percent-encoded UTF-8")
                }
                query[key] = value
                queryValues[key, default: []].append(value)
            }
        }
    }

    /// `Accept: application/json` (or `…+json`) before any HTML type.
    static func prefersJSON(_ accept: String) -> Bool {
        for item in accept.split(separator: ",") {
            let type = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if type == "application/json" || type.hasSuffix("+json") { return true }
            if type == "text/html" || type == "application/xhtml+xml" { return false }
        }
        return false
    }

    /// `%XX` escapes (and `+` for a space in queries) decoded; nil for a broken escape or invalid UTF-8.
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The predicate in `where`, nil when empty; bounded in length and free of `%` specifiers (there are no
    /// arguments to give them).
    func predicate() throws -> String? {
        guard let text = query["where"]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.utf8.count <= Self.maximumPredicateLength else {
            throw BrowseError(.badRequest, "the predicate is \(text.utf8.count) bytes long; at most "
                              + "\(Self.maximumPredicateLength) are accepted")
        }
        return text
    }

    /// The names in parameter `name`, repeated or comma-separated (`facet=a,b&facet=c`), each once, in order.
    func names(_ name: String, atMost maximum: Int) throws -> [String] {
        var names: [String] = []
        for value in queryValues[name] ?? [] {
            for part in value.split(separator: ",") {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty && !names.contains(trimmed) { names.append(trimmed) }
            }
        }
        guard names.count <= maximum else {
            throw BrowseError(.badRequest, "\(name) takes at most \(maximum) names, not \(names.count)")
        }
        return names
    }

    /// `limit`: 1…500, 50 by default.
    func pageSize() throws -> Int {
        guard let text = query["limit"], !text.isEmpty else { return Self.defaultPageSize }
        guard text.count <= 6, let size = Int(text), size >= 1, size <= Self.maximumPageSize else {
            throw BrowseError(.badRequest, "limit must be a whole number from 1 to \(Self.maximumPageSize), not '\(text.prefix(40))'")
        }
        return size
    }

    /// A primary key in parameter `name` (`after`, `from`), nil when absent.
    func key(_ name: String) throws -> Int64? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard text.count <= 19, let key = Int64(text), key >= 0 else {
            throw BrowseError(.badRequest, "\(name) must be a whole number of 0 or more, not '\(text.prefix(40))'")
        }
        return key
    }
}

/// A request the server refuses, with the status and the sentence that says why.
struct BrowseError: Error, Sendable {
    enum Status: Int, Sendable {
        case badRequest = 400
        case notFound = 404
        case methodNotAllowed = 405
        case notAcceptable = 406
        case uriTooLong = 414
        case unavailable = 503
    }
    var status: Status
    var message: String
    /// Where in the predicate the problem is (1-based column), for predicate errors.
    var column: Int?
    /// The predicate text, for showing the column.
    var predicate: String?

    init(_ status: Status, _ message: String, column: Int? = nil, predicate: String? = nil) {
        self.status = status
        self.message = message
        self.column = column
        self.predicate = predicate
    }
}

extension BrowseError: CustomStringConvertible {
    var description: String { message }
}
