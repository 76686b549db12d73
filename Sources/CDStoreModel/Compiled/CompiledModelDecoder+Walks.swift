/// The parts of a compiled model that are chains or nested containers rather than fixed fields, read through the
/// decoder's ``KeyedArchive/Walk`` so that a damaged archive fails with an error naming the object instead of
/// looping or overflowing the stack.
extension CompiledModelDecoder.Decoder {
    /// Follows `NSSuperentity` up from every entity. momc cannot write an entity that is its own ancestor, so a
    /// chain that comes back (or goes on for more than ``ObjectPath/defaultDepthLimit`` entities) is a damaged
    /// archive. (XML and JSON models with such a cycle load, and ``ModelValidator`` reports them.)
    func checkSuperentityChains(_ entities: [(name: String, index: Int)]) throws {
        for (name, start) in entities {
            let chain = KeyedArchive.Walk(archive)
            var current: Int? = start
            while let index = current {
                do {
                    try chain.enter(index)
                } catch {
                    let message = switch error.kind {
                    case .cycle: "\(error.object) is its own superentity\(error.throughText)"
                    case .tooDeep, .tooMany: "the superentity chain of \(archive.name(of: start)) is longer than "
                        + "\(chain.depth) entities"
                    }
                    throw ModelError(.damagedArchive, message, file: file, entity: name)
                }
                current = archive.reference(archive.fields(index)["NSSuperentity"])
            }
        }
    }

    /// A userInfo dictionary: its string values, other scalars as text. momc writes only strings; a container
    /// value (an app's own archive may hold one) is kept as "" as before, but walked, so that one containing
    /// itself or the dictionary is a damaged archive.
    func userInfo(_ value: PropertyListValue?) throws -> [String: String] {
        guard let index = archive.reference(value), archive.objects[index].dictionaryValue != nil else {
            return archive.stringDictionary(value)
        }
        return try walk.visit(index) {
            var result: [String: String] = [:]
            for (key, item) in archive.dictionary(value) ?? [] {
                if let text = archive.string(item) {
                    result[key] = text
                    continue
                }
                if let ref = archive.reference(item), archive.objects[ref].dictionaryValue != nil {
                    try walkContainer(ref)
                }
                result[key] = archive.describe(item)
            }
            return result
        }
    }

    /// Enters a container object and everything it holds (`NS.keys`, `NS.objects`), reading nothing.
    private func walkContainer(_ index: Int) throws {
        try walk.visit(index) {
            let fields = archive.fields(index)
            for key in ["NS.keys", "NS.objects"] {
                guard case .array(let items)? = fields[key] else { continue }
                for item in items {
                    if let ref = archive.reference(item), archive.objects[ref].dictionaryValue != nil {
                        try walkContainer(ref)
                    }
                }
            }
        }
    }

    /// `body`'s result, or nil when the formatter cannot print what it met; a damaged archive still throws.
    func unlessUnsupported<T>(_ body: () throws -> T) throws -> T? {
        do {
            return try body()
        } catch is ArchivedPredicateFormatter.Unsupported {
            return nil
        }
    }
}
