/// Parses `NSPredicate` format strings.
///
/// ```swift
/// let p = try PredicateParser.parse("%K BEGINSWITH[c] %@ AND age > %d",
///                                   arguments: [.keyPath("name"), .text("a"), .text("30")])
/// ```
///
/// Precedence, loosest first: `OR`, `AND`, `NOT`, comparison, `UNION`/`INTERSECT`/`MINUS`, `|`, `^`, `&`,
/// `+ -`, `* /`, `**` (right-associative), unary `-`, then `.` and `[…]`.
package enum PredicateParser {
    /// The default nesting limit; deeper input is an error rather than a stack overflow.
    package static let defaultMaxDepth = 500

    /// Parses a predicate, binding `%` specifiers to `arguments` in order.
    ///
    /// Every specifier needs an argument and every argument must be used. `$VARIABLES` stay in the tree;
    /// bind them with ``PredicateNode/substituting(variables:)``.
    package static func parse(
        _ text: String, arguments: [FormatArgument] = [], maxDepth: Int = defaultMaxDepth
    ) throws(CDPredicateError) -> PredicateNode {
        let parser = try Parser(text: text, arguments: arguments, maxDepth: maxDepth)
        return try parser.run { (p: inout Parser) throws(CDPredicateError) in try p.requirePredicate(p.parseOr()) }
    }

    /// Parses a lone expression, such as a derived attribute's `canonical:(name)` or `employees.@count`.
    package static func parseExpression(
        _ text: String, arguments: [FormatArgument] = [], maxDepth: Int = defaultMaxDepth
    ) throws(CDPredicateError) -> ExpressionNode {
        let parser = try Parser(text: text, arguments: arguments, maxDepth: maxDepth)
        return try parser.run { (p: inout Parser) throws(CDPredicateError) in try p.parseExpression() }
    }

    /// The reserved words of the format language; as keys they must be written with `#` (`#size`).
    package static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
        "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]
}

/// What a parenthesised group turned out to be. A `(` at the start of a comparison may open either a
/// predicate, `(a == 1 OR b == 2)`, or an expression, `(n + 1) * 2 == 6`; parsing both through one path
/// and deciding afterwards avoids backtracking, which would be exponential in the nesting depth.
enum Parsed {
    case predicate(PredicateNode)
    /// An expression not followed by a comparison operator; `next` is the token after it.
    case expression(ExpressionNode, next: Token)
}

struct Parser: Sendable {
    var tokens: [Token]
    var position = 0
    let arguments: [FormatArgument]
    var argumentIndex = 0
    var depth = 0
    let maxDepth: Int

    init(text: String, arguments: [FormatArgument], maxDepth: Int) throws(CDPredicateError) {
        tokens = try Lexer.tokenize(text)
        self.arguments = arguments
        self.maxDepth = maxDepth
    }

    var current: Token { tokens[position] }
    var next: Token { tokens[min(position + 1, tokens.count - 1)] }

    @discardableResult
    mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    mutating func enter() throws(CDPredicateError) {
        depth += 1
        if depth > maxDepth {
            throw CDPredicateError(.tooDeep, "predicate nested too deeply (limit \(maxDepth))", column: current.column)
        }
    }

    func unexpected() -> CDPredicateError {
        if current.kind == .end { return CDPredicateError(.unexpectedEnd, "unexpected end of predicate", column: current.column) }
        if current.isSymbol(")") { return CDPredicateError(.unbalancedParentheses, "unbalanced ')'", column: current.column) }
        return CDPredicateError(.unexpectedToken, "unexpected \(current.quoted)", column: current.column)
    }

    mutating func expect(_ symbol: String, opening: Token? = nil) throws(CDPredicateError) {
        if current.isSymbol(symbol) {
            advance()
            return
        }
        if let opening, symbol == ")", current.kind == .end || !current.isSymbol(",") {
            if current.kind == .end {
                throw CDPredicateError(.unbalancedParentheses, "unclosed '('", column: opening.column)
            }
            throw CDPredicateError(.unbalancedParentheses,
                                 "expected ')' to close '(' at column \(opening.column), found \(current.quoted)",
                                 column: current.column)
        }
        throw CDPredicateError(.unexpectedToken, "expected '\(symbol)', found \(current.quoted)", column: current.column)
    }

    mutating func finish() throws(CDPredicateError) {
        guard current.kind == .end else { throw unexpected() }
        if argumentIndex < arguments.count {
            throw CDPredicateError(.tooManyArguments,
                                 "too many format arguments: \(arguments.count) given, \(argumentIndex) used")
        }
    }

    func requirePredicate(_ parsed: Parsed) throws(CDPredicateError) -> PredicateNode {
        switch parsed {
        case .predicate(let p): return p
        case .expression(_, let next):
            if next.kind == .end {
                throw CDPredicateError(.missingOperand, "expected a comparison operator at end of predicate",
                                     column: next.column)
            }
            throw CDPredicateError(.unexpectedToken, "expected a comparison operator, found \(next.quoted)",
                                 column: next.column)
        }
    }

    // MARK: Predicates

    mutating func parseOr() throws(CDPredicateError) -> Parsed {
        let first = try parseAnd()
        guard isKeyword("OR") || current.isSymbol("||") else { return first }
        var items = [try requirePredicate(first)]
        while isKeyword("OR") || current.isSymbol("||") {
            let op = advance()
            try checkOperand(after: op)
            items.append(try requirePredicate(parseAnd()))
        }
        return .predicate(.or(items))
    }

    mutating func parseAnd() throws(CDPredicateError) -> Parsed {
        let first = try parseNot()
        guard isKeyword("AND") || current.isSymbol("&&") else { return first }
        var items = [try requirePredicate(first)]
        while isKeyword("AND") || current.isSymbol("&&") {
            let op = advance()
            try checkOperand(after: op)
            items.append(try requirePredicate(parseNot()))
        }
        return .predicate(.and(items))
    }

    mutating func parseNot() throws(CDPredicateError) -> Parsed {
        guard isKeyword("NOT") || current.isSymbol("!") else { return try parseComparison() }
        try enter()
        defer { depth -= 1 }
        let op = advance()
        try checkOperand(after: op)
        return .predicate(.not(try requirePredicate(parseNot())))
    }

    /// Reports a missing operand when an operator is followed by the end, `)`, `,` or a logical keyword.
    func checkOperand(after op: Token) throws(CDPredicateError) {
        let missing = current.kind == .end || current.isSymbol(")") || current.isSymbol(",")
            || ["AND", "OR"].contains(current.keyword ?? "") || current.isSymbol("&&") || current.isSymbol("||")
        if missing {
            throw CDPredicateError(.missingOperand, "missing operand after \(op.quoted)", column: current.column)
        }
    }

    func isKeyword(_ word: String) -> Bool { current.keyword == word }

    mutating func parseComparison() throws(CDPredicateError) -> Parsed {
        switch current.keyword {
        case "TRUEPREDICATE":
            advance()
            return .predicate(.constant(true))
        case "FALSEPREDICATE":
            advance()
            return .predicate(.constant(false))
        case "ANY", "SOME", "ALL", "NONE":
            let quantifier = advance()
            let modifier: ComparisonModifier =
                switch quantifier.keyword { case "ALL": .all
                                            case "NONE": .none
                                            default: .any }
            try checkOperand(after: quantifier)
            let left = try parseExpression()
            guard let comparison = try parseComparisonTail(left: left, modifier: modifier) else {
                throw CDPredicateError(.missingOperand,
                                     "expected a comparison operator after \(quantifier.quoted) expression, found \(current.quoted)",
                                     column: current.column)
            }
            return .predicate(comparison)
        default:
            break
        }
        let left: ExpressionNode
        if current.isSymbol("(") {
            try enter()
            let opening = advance()
            let inner = try parseOr()
            try expect(")", opening: opening)
            depth -= 1
            switch inner {
            case .predicate(let p): return .predicate(p)
            case .expression(let e, _): left = try continueExpression(from: e)
            }
        } else {
            left = try parseExpression()
        }
        if let comparison = try parseComparisonTail(left: left, modifier: .direct) {
            return .predicate(comparison)
        }
        return .expression(left, next: current)
    }

    /// Parses `op[options] right` after `left`, or returns nil when no comparison operator follows.
    mutating func parseComparisonTail(
        left: ExpressionNode, modifier: ComparisonModifier
    ) throws(CDPredicateError) -> PredicateNode? {
        if isKeyword("NOT"), Self.comparisonOperator(next) != nil {
            throw CDPredicateError(.notIn,
                                 "'NOT \(next.keyword ?? "")' is not supported; write NOT (x \(next.keyword ?? "") …) instead",
                                 column: current.column)
        }
        guard let op = Self.comparisonOperator(current) else { return nil }
        let opToken = advance()
        var options: ComparisonOptions = []
        if current.isSymbol("[") {
            options = try parseOptions()
        }
        try checkOperand(after: opToken)
        let right = try parseExpression()
        if op == .between, case .constant(.array(let values)) = right, values.count != 2 {
            throw CDPredicateError(.invalidStructure, "BETWEEN needs two values {low, high}, got \(values.count)",
                                 column: opToken.column)
        }
        return .comparison(PredicateComparison(modifier: modifier, left: left, op: op, right: right, options: options))
    }

    mutating func parseOptions() throws(CDPredicateError) -> ComparisonOptions {
        let open = advance()
        var options: ComparisonOptions = []
        guard case .identifier(let letters, false) = current.kind else {
            throw CDPredicateError(.unknownOption, "expected options such as c, d or cd inside '[]'", column: current.column)
        }
        for (offset, letter) in letters.unicodeScalars.enumerated() {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            case "l", "L": options.insert(.localeSensitive)
            default:
                throw CDPredicateError(.unknownOption, "unknown option '\(letter)' in '[\(letters)]' (expected c, d, n or l)",
                                     column: current.column + offset)
            }
        }
        advance()
        guard current.isSymbol("]") else {
            throw CDPredicateError(.unexpectedToken, "expected ']' to close '[' at column \(open.column), found \(current.quoted)",
                                 column: current.column)
        }
        advance()
        return options
    }

    static func comparisonOperator(_ token: Token) -> ComparisonOperator? {
        switch token.kind {
        case .symbol("="), .symbol("=="): return .equal
        case .symbol("!="), .symbol("<>"): return .notEqual
        case .symbol("<"): return .lessThan
        case .symbol("<="), .symbol("=<"): return .lessThanOrEqual
        case .symbol(">"): return .greaterThan
        case .symbol(">="), .symbol("=>"): return .greaterThanOrEqual
        default: break
        }
        switch token.keyword {
        case "BETWEEN": return .between
        case "IN": return .in
        case "CONTAINS": return .contains
        case "BEGINSWITH": return .beginsWith
        case "ENDSWITH": return .endsWith
        case "LIKE": return .like
        case "MATCHES": return .matches
        case "UTI-CONFORMS-TO": return .utiConformsTo
        case "UTI-EQUALS": return .utiEquals
        default: return nil
        }
    }
}
