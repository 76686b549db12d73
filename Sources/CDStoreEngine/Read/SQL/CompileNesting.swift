/// The nesting depth of a predicate compilation: every predicate and expression node entered on the way down.
///
/// The parser bounds a tree's depth (``PredicateParser/defaultMaxDepth``), but compiling one level takes
/// tens of kilobytes of stack in a debug build, so 300 nested `+` overflowed the 8 MiB main thread; and SQLite's
/// own parser refuses SQL nested about 100 parentheses deep ("parser stack overflow"). Deeper predicates are
/// refused here, with a message that says why, before any SQL is built.
final class CompileNesting {
    /// Levels of predicate and expression nodes compiled inside each other (a comparison and its two operands
    /// are two levels).
    static let limit = 100

    private var depth = 0

    /// Enters one node; throws when that is one level too many.
    func enter(_ compiler: PredicateCompiler) throws {
        depth += 1
        guard depth <= Self.limit else {
            depth -= 1
            throw compiler.unsupported("nested more than \(Self.limit) levels deep; SQLite cannot run it")
        }
    }

    /// Leaves the innermost node.
    func leave() {
        depth -= 1
    }
}
