import CDStoreJSON
import Foundation

extension JSONModelCodec {
    /// Turns JSON nodes into ``ObjectReader``s and errors that name the file.
    struct Reader {
        let file: String

        /// Reads `node` as an object whose keys must all be in `keys`. When `named` is given, the object's
        /// `name` member (if it is a string) goes into that field of the context before anything is checked,
        /// so even an unknown key is reported with the entity or property it belongs to.
        func object(_ node: JSONNode, path: String, keys: Set<String>, context: ObjectReader.Context = .none,
                    named: WritableKeyPath<ObjectReader.Context, String?>? = nil) throws -> ObjectReader {
            var reader = ObjectReader(file: file, path: path, node: node, context: context)
            if let named, let name = try? reader.string("name") { reader.context[keyPath: named] = name }
            guard case .object(let members) = node.kind else {
                throw reader.error("expected an object at \(path.isEmpty ? "the top level" : path), found "
                                   + node.typeDescription, at: node)
            }
            for member in members where !keys.contains(member.key) {
                var message = "unknown key '\(member.key)' in \(path.isEmpty ? "the top-level object" : path)"
                if let suggestion = closest(to: member.key, in: keys) { message += "; did you mean '\(suggestion)'?" }
                throw reader.error(message, at: member.value)
            }
            return reader
        }
    }
}

/// Reads the members of one JSON object, checking each value's type. Absent keys and `null` give the
/// default; errors carry the file, the line and column, the entity and property, and the JSON path.
struct ObjectReader {
    /// The entity and property an object belongs to, for error messages.
    struct Context {
        var entity: String?
        var property: String?
        static let none = Context(entity: nil, property: nil)
        init(entity: String?, property: String? = nil) {
            self.entity = entity
            self.property = property
        }
    }

    let file: String
    let path: String
    let node: JSONNode
    var context: Context
    private let members: [String: JSONNode]

    init(file: String, path: String, node: JSONNode, context: Context) {
        self.file = file
        self.path = path
        self.node = node
        self.context = context
        if case .object(let list) = node.kind {
            members = Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        } else {
            members = [:]
        }
    }

    func node(_ key: String) -> JSONNode? { members[key] }

    func error(_ message: String, at node: JSONNode?, code: ModelError.Code = .malformedJSON) -> ModelError {
        let where_ = node ?? self.node
        return ModelError(code, message, file: file, line: where_.line, column: where_.column,
                          entity: context.entity, property: context.property)
    }

    private func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func typeError(_ key: String, expected: String, found: JSONNode) -> ModelError {
        error("\(keyPath(key)) must be \(expected), not \(found.typeDescription)", at: found)
    }

    private func missing(_ key: String) -> ModelError {
        error("missing required key '\(key)' in \(path.isEmpty ? "the top-level object" : path)", at: node)
    }

    // MARK: Scalars

    func string(_ key: String, allowNull: Bool = true) throws -> String? {
        guard let value = members[key] else { return nil }
        switch value.kind {
        case .string(let text): return text
        case .null where allowNull: return nil
        default: throw typeError(key, expected: "a string", found: value)
        }
    }

    func requiredString(_ key: String) throws -> String {
        guard let value = members[key] else { throw missing(key) }
        guard case .string(let text) = value.kind else { throw typeError(key, expected: "a string", found: value) }
        return text
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = members[key] else { return nil }
        switch value.kind {
        case .bool(let flag): return flag
        case .null: return nil
        default: throw typeError(key, expected: "true or false", found: value)
        }
    }

    func bool(_ key: String) throws -> Bool { try optionalBool(key) ?? false }

    func int(_ key: String) throws -> Int? {
        guard let value = members[key] else { return nil }
        switch value.kind {
        case .number(let text):
            guard let number = Int(text) else { throw typeError(key, expected: "a whole number", found: value) }
            return number
        case .null: return nil
        default: throw typeError(key, expected: "a whole number", found: value)
        }
    }

    func requiredInt(_ key: String) throws -> Int {
        guard members[key] != nil else { throw missing(key) }
        guard let number = try int(key) else { throw missing(key) }
        return number
    }

    func double(_ key: String) throws -> Double? {
        guard let value = members[key] else { return nil }
        switch value.kind {
        case .number(let text):
            guard let number = Double(text) else { throw typeError(key, expected: "a number", found: value) }
            return number
        case .null: return nil
        default: throw typeError(key, expected: "a number", found: value)
        }
    }

    // MARK: Collections

    func array(_ key: String) throws -> [JSONNode] {
        guard let value = members[key] else { return [] }
        switch value.kind {
        case .array(let elements): return elements
        case .null: return []
        default: throw typeError(key, expected: "an array", found: value)
        }
    }

    func requiredArray(_ key: String) throws -> [JSONNode] {
        guard members[key] != nil else { throw missing(key) }
        return try array(key)
    }

    func strings(_ key: String) throws -> [String] {
        try array(key).enumerated().map { index, element in
            guard case .string(let text) = element.kind else {
                throw typeError("\(key)[\(index)]", expected: "a string", found: element)
            }
            return text
        }
    }

    func stringLists(_ key: String) throws -> [[String]] {
        try array(key).enumerated().map { index, element in
            guard case .array(let items) = element.kind else {
                throw typeError("\(key)[\(index)]", expected: "an array of property names", found: element)
            }
            return try items.enumerated().map { position, item in
                guard case .string(let text) = item.kind else {
                    throw typeError("\(key)[\(index)][\(position)]", expected: "a string", found: item)
                }
                return text
            }
        }
    }

    func stringMap(_ key: String) throws -> [String: String] {
        guard let value = members[key] else { return [:] }
        switch value.kind {
        case .object(let entries):
            var result: [String: String] = [:]
            for entry in entries {
                guard case .string(let text) = entry.value.kind else {
                    throw typeError("\(key).\(entry.key)", expected: "a string", found: entry.value)
                }
                result[entry.key] = text
            }
            return result
        case .null: return [:]
        default: throw typeError(key, expected: "an object of strings", found: value)
        }
    }
}

/// The allowed key nearest to a misspelt one, if it is close enough to be a likely typo.
func closest(to word: String, in candidates: some Collection<String>) -> String? {
    let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
    return best.1 <= max(2, word.count / 3) ? best.0 : nil
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
