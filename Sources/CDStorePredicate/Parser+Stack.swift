import Foundation

extension Parser {
    /// Runs `body` and checks that all input and arguments were used. Deeply nested input runs on a thread
    /// with a large stack: the parser is recursive, and in debug builds one level of nesting such as
    /// `SUBQUERY(` can take ~20 KB of stack, so 500 levels would overflow a default 8 MB (or 512 KB)
    /// thread stack before the depth limit is reached. Shallow input, the usual case, runs inline.
    func run<T: Sendable>(
        _ body: @escaping @Sendable (inout Parser) throws(CDPredicateError) -> T
    ) throws(CDPredicateError) -> T {
        let task: @Sendable () throws(CDPredicateError) -> T = {
            var parser = self
            let result = try body(&parser)
            try parser.finish()
            return result
        }
        guard nestingEstimate > Self.inlineNestingLimit else { return try task() }
        return try Self.onLargeStack(task)
    }

    /// Nesting up to which parsing runs on the caller's stack.
    static let inlineNestingLimit = 40

    /// An upper bound on the recursion depth: open brackets plus operators that recurse once per use.
    var nestingEstimate: Int {
        var open = 0, deepest = 0, recursive = 0
        for token in tokens {
            switch token.kind {
            case .symbol("("), .symbol("{"), .symbol("["):
                open += 1
                deepest = max(deepest, open)
            case .symbol(")"), .symbol("}"), .symbol("]"):
                open -= 1
            case .symbol("-"), .symbol("!"), .symbol("**"):
                recursive += 1
            default:
                if token.keyword == "NOT" { recursive += 1 }
            }
        }
        return deepest + recursive
    }

    private final class Box<T>: @unchecked Sendable {
        var result: Result<T, CDPredicateError>?
    }

    private static func onLargeStack<T: Sendable>(
        _ task: @escaping @Sendable () throws(CDPredicateError) -> T
    ) throws(CDPredicateError) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { () throws(CDPredicateError) -> T in try task() }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        guard let result = box.result else {
            throw CDPredicateError(.tooDeep, "predicate could not be parsed (worker thread failed)")
        }
        return try result.get()
    }
}
