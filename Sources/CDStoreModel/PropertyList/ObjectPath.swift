/// The objects a recursive walk over an object graph is inside of — a keyed archive's `$objects`, a binary
/// property list's object table — so that input which refers back to itself, or nests absurdly deep, stops the
/// walk with an ``ObjectPathError`` instead of recursing until the stack overflows.
///
/// Archives are graphs, not trees: an entity and its properties, a relationship and its inverse refer to each
/// other, and one object may be shared by many. So only the objects on the *current* path are kept (an object
/// met again on another branch is fine), and every recursive reader enters an object before reading what it
/// contains and leaves it afterwards. ``KeyedArchive/Walk`` does this for keyed archives (compiled models,
/// model caches, Transformable values, and any later reader such as one for mapping models); the binary
/// property-list reader uses it directly.
package struct ObjectPath: Sendable {
    /// How deep a walk may go: far beyond any model Xcode writes (a predicate of a hundred nested parts is
    /// already unusual), and shallow enough for the stack: the predicate formatter takes about 4 KiB a level in a
    /// debug build, so 256 levels need about 1 MiB of the 8 MiB every thread gets on Linux (the CLI runs on the
    /// main thread; Darwin's 512 KiB secondary threads would hold about 120 levels).
    package static let defaultDepthLimit = 256

    /// The most objects the path may hold.
    package let depthLimit: Int
    /// The most times the walk may enter an object, counting an object shared by several others once per visit.
    /// A walk that produces a value per visit (text, a tree) would otherwise take exponential time on a few
    /// kilobytes: a predicate whose two subpredicates are the same object, whose two are the same object, …
    package let visitLimit: Int
    /// The indexes on the path, outermost first.
    package private(set) var indexes: [Int] = []
    /// How many times the walk has entered an object.
    package private(set) var visits = 0
    private var members: Set<Int> = []

    /// An empty path that refuses to grow beyond `depthLimit` objects or to enter objects more than
    /// `visitLimit` times in all.
    package init(depthLimit: Int = defaultDepthLimit, visitLimit: Int = .max) {
        self.depthLimit = depthLimit
        self.visitLimit = visitLimit
    }

    /// How many objects the walk is inside of.
    package var depth: Int { indexes.count }

    /// Adds `index` to the path. Throws when it is already on the path (the object contains itself) or when the
    /// path is full; `name` turns an index into the words an error uses, e.g. "NSCompoundPredicate #12".
    package mutating func enter(_ index: Int, name: (Int) -> String) throws(ObjectPathError) {
        if members.contains(index) {
            let start = indexes.lastIndex(of: index) ?? 0
            var error = ObjectPathError(kind: .cycle, index: index, object: name(index), description: "",
                                        through: indexes[(start + 1)...].map(name))
            error.description = "\(error.object) contains itself" + error.throughText
            throw error
        }
        guard indexes.count < depthLimit else {
            throw ObjectPathError(kind: .tooDeep, index: index, object: name(index),
                                  description: "\(name(index)) is nested more than \(depthLimit) objects deep")
        }
        guard visits < visitLimit else {
            throw ObjectPathError(kind: .tooMany, index: index, object: name(index),
                                  description: "\(name(index)) is one visit too many: the objects are shared so often "
                                      + "that reading them would take more than \(visitLimit) visits")
        }
        visits += 1
        indexes.append(index)
        members.insert(index)
    }

    /// Removes the innermost object from the path.
    package mutating func leave() {
        if let index = indexes.popLast() { members.remove(index) }
    }
}

/// A walk over an object graph that found an object inside itself, or objects nested deeper than its limit.
package struct ObjectPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the walk found.
    package enum Kind: Sendable, Equatable {
        /// The object contains itself, directly or through others.
        case cycle
        /// The object is nested deeper than ``ObjectPath/depthLimit``.
        case tooDeep
        /// Entering the object would exceed ``ObjectPath/visitLimit``.
        case tooMany
    }

    /// What the walk found.
    package var kind: Kind
    /// The index of the object (in `$objects`, or in the property list's object table).
    package var index: Int
    /// The object as the walk names it, e.g. "NSCompoundPredicate #12".
    package var object: String
    /// One sentence, e.g. "NSCompoundPredicate #12 contains itself (through NSComparisonPredicate #14)".
    package var description: String
    /// For a cycle, the objects between the object and itself, outermost first (empty when it contains itself
    /// directly).
    package var through: [String] = []

    /// " (through A #1, B #2)" for a cycle through other objects (at most four named), else "".
    package var throughText: String {
        guard !through.isEmpty else { return "" }
        return " (through " + through.prefix(4).joined(separator: ", ") + (through.count > 4 ? ", …" : "") + ")"
    }
}
