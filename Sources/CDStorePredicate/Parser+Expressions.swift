import Foundation

/// A binary expression operator with its binding strength (larger binds tighter).
private enum BinaryOperator {
    case set(SetOperator)
    case bitwise(String)
    case arithmetic(ArithmeticOperator)

    var precedence: Int {
        switch self {
        case .set: return 0
        case .bitwise("bitwiseOr:with:"): return 1
        case .bitwise("bitwiseXor:with:"): return 2
        case .bitwise: return 3
        case .arithmetic(let op): return 3 + op.precedence
        }
    }

    var isRightAssociative: Bool {
        if case .arithmetic(.power) = self { return true }
        return false
    }

    func combine(_ lhs: ExpressionNode, _ rhs: ExpressionNode) -> ExpressionNode {
        switch self {
        case .set(let op): return .setOperation(op, lhs, rhs)
        case .bitwise(let selector): return .function(selector, [lhs, rhs])
        case .arithmetic(let op): return .arithmetic(op, lhs, rhs)
        }
    }
}

extension Parser {
    /// Parses an expression at the loosest expression level.
    mutating func parseExpression() throws(CDPredicateError) -> ExpressionNode {
        try climb(from: parseUnary(), minimumPrecedence: 0)
    }

    /// Continues an expression whose first operand, a parenthesised group, is already parsed.
    mutating func continueExpression(from first: ExpressionNode) throws(CDPredicateError) -> ExpressionNode {
        try climb(from: parsePostfix(first), minimumPrecedence: 0)
    }

    private func binaryOperator() -> BinaryOperator? {
        switch current.kind {
        case .symbol("+"): return .arithmetic(.add)
        case .symbol("-"): return .arithmetic(.subtract)
        case .symbol("*"): return .arithmetic(.multiply)
        case .symbol("/"): return .arithmetic(.divide)
        case .symbol("**"): return .arithmetic(.power)
        case .symbol("&"): return .bitwise("bitwiseAnd:with:")
        case .symbol("|"): return .bitwise("bitwiseOr:with:")
        case .symbol("^"): return .bitwise("bitwiseXor:with:")
        default: break
        }
        switch current.keyword {
        case "UNION": return .set(.union)
        case "INTERSECT": return .set(.intersect)
        case "MINUS": return .set(.minus)
        default: return nil
        }
    }

    /// Precedence climbing: folds operators of at least `minimumPrecedence` onto `lhs`.
    ///
    /// Each fold puts the tree built so far one level deeper, though the parser itself loops rather than
    /// recurses: the folds count towards ``Parser/maxDepth`` until the chain ends, so that `a + 1 + 1 + …` cannot
    /// build a tree deeper than the limit (the SQL compiler and the evaluator recurse over it; 2,000 terms
    /// overflowed the stack of `cdstore count --where`).
    private mutating func climb(
        from lhs: ExpressionNode, minimumPrecedence: Int
    ) throws(CDPredicateError) -> ExpressionNode {
        var lhs = lhs
        var folds = 0
        defer { depth -= folds }
        while let op = binaryOperator(), op.precedence >= minimumPrecedence {
            let opToken = advance()
            try checkOperand(after: opToken)
            try enter()
            folds += 1
            let first = try parseUnary()
            let rhs = try climb(from: first, minimumPrecedence: op.isRightAssociative ? op.precedence : op.precedence + 1)
            lhs = op.combine(lhs, rhs)
        }
        return lhs
    }

    mutating func parseUnary() throws(CDPredicateError) -> ExpressionNode {
        try enter()
        defer { depth -= 1 }
        if current.isSymbol("-") {
            let minus = advance()
            try checkOperand(after: minus)
            let operand = try parseUnary()
            switch operand {
            case .constant(.int(let i)) where i != .min: return .constant(.int(-i))
            case .constant(.double(let d)): return .constant(.double(-d))
            default: return .negate(operand)
            }
        }
        return try parsePostfix(parsePrimary())
    }

    /// Applies `.key`, `.@op` and `[index]` suffixes. An index, and a key applied to something other than a key
    /// path, wrap the expression in a new node; like the folds of ``climb(from:minimumPrecedence:)`` they count
    /// towards the nesting limit until the chain ends (`a[0][0][0]…` would otherwise nest without bound).
    mutating func parsePostfix(_ base: ExpressionNode) throws(CDPredicateError) -> ExpressionNode {
        var base = base
        var wraps = 0
        defer { depth -= wraps }
        while true {
            if current.isSymbol(".") {
                advance()
                let path: PredicateKeyPath
                switch current.kind {
                case .identifier(let name, _): path = PredicateKeyPath([.key(name)])
                case .atIdentifier(let name): path = PredicateKeyPath([.collectionOperator(CollectionOperator(name: name))])
                // Apple's parser takes `%K` after a dot (`ANY %K.%K == %@`, `$FETCH_SOURCE.%K`), and app code uses it.
                case .format(let spec) where spec.conversion == "K":
                    path = try nextArgument(spec, at: current).boundKeyPath(spec, column: current.column)
                default:
                    throw CDPredicateError(.unexpectedToken, "expected a key after '.', found \(current.quoted)",
                                         column: current.column)
                }
                advance()
                switch base {
                case .evaluatedObject, .keyPath, .member: break
                default:
                    try enter()
                    wraps += 1
                }
                base = .applying(path, to: base)
            } else if current.isSymbol("[") {
                try enter()
                wraps += 1
                let open = advance()
                let index: PredicateIndex
                switch current.keyword {
                case "FIRST": index = .first
                case "LAST": index = .last
                case "SIZE": index = .size
                default: index = .expression(try parseExpression())
                }
                if case .expression = index {} else { advance() }
                guard current.isSymbol("]") else {
                    throw CDPredicateError(.unexpectedToken,
                                         "expected ']' to close '[' at column \(open.column), found \(current.quoted)",
                                         column: current.column)
                }
                advance()
                base = .index(base, index)
            } else {
                return base
            }
        }
    }

    /// Takes the format argument for the specifier at `token`.
    mutating func nextArgument(_ spec: FormatSpecifier, at token: Token) throws(CDPredicateError) -> FormatArgument {
        guard argumentIndex < arguments.count else {
            throw CDPredicateError(.tooFewArguments,
                                 "too few format arguments: \(spec.spelling) is argument \(argumentIndex + 1) but \(arguments.count) given",
                                 column: token.column)
        }
        argumentIndex += 1
        return arguments[argumentIndex - 1]
    }

    mutating func parsePrimary() throws(CDPredicateError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .integer(let i):
            advance()
            return .constant(.int(i))
        case .float(let d):
            advance()
            return .constant(.double(d))
        case .string(let s):
            advance()
            return .constant(.string(s))
        case .variable(let name):
            advance()
            guard current.isSymbol(":=") else { return .variable(name) }
            let assign = advance()
            try checkOperand(after: assign)
            return .assignment(variable: name, value: try parseExpression())
        case .format(let spec):
            advance()
            return try nextArgument(spec, at: token).bind(to: spec, column: token.column)
        case .atIdentifier(let name):
            advance()
            return .keyPath(PredicateKeyPath([.collectionOperator(CollectionOperator(name: name))]))
        case .symbol("("):
            let opening = advance()
            let inner = try parseOr()
            try expect(")", opening: opening)
            guard case .expression(let e, _) = inner else {
                throw CDPredicateError(.invalidStructure, "expected an expression in parentheses, found a predicate",
                                     column: token.column)
            }
            return e
        case .symbol("{"):
            advance()
            let members = try parseList(closing: "}")
            return .makeAggregate(members)
        case .identifier(let name, let escaped):
            if escaped {
                advance()
                return .keyPath(PredicateKeyPath([.key(name)]))
            }
            return try parseNamed(name)
        default:
            throw unexpected()
        }
    }

    /// Parses comma-separated expressions up to `closing`, which it consumes; the opener is already consumed.
    private mutating func parseList(closing: String) throws(CDPredicateError) -> [ExpressionNode] {
        var members: [ExpressionNode] = []
        if current.isSymbol(closing) {
            advance()
            return members
        }
        while true {
            members.append(try parseExpression())
            if current.isSymbol(",") {
                advance()
                continue
            }
            guard current.isSymbol(closing) else {
                throw CDPredicateError(.unexpectedToken, "expected ',' or '\(closing)', found \(current.quoted)",
                                     column: current.column)
            }
            advance()
            return members
        }
    }

    private mutating func expectComma(in construct: String) throws(CDPredicateError) {
        guard current.isSymbol(",") else {
            throw CDPredicateError(.unexpectedToken, "expected ',' in \(construct), found \(current.quoted)",
                                 column: current.column)
        }
        advance()
    }

    /// An identifier in operand position: a keyword literal, a special form, a function call or a key.
    private mutating func parseNamed(_ name: String) throws(CDPredicateError) -> ExpressionNode {
        let token = current
        let word = name.uppercased()
        let callFollows = next.isSymbol("(")
        switch word {
        case "TRUE", "YES": advance(); return .constant(.bool(true))
        case "FALSE", "NO": advance(); return .constant(.bool(false))
        case "NULL", "NIL": advance(); return .constant(.null)
        case "SELF": advance(); return .evaluatedObject
        case "ANYKEY": advance(); return .anyKey
        case "SUBQUERY", "CAST", "FETCH", "TERNARY", "FUNCTION":
            guard callFollows else { break }
            advance()
            let opening = advance()
            let result = try parseSpecialForm(word, at: token)
            try expect(")", opening: opening)
            return result
        default:
            break
        }
        if PredicateParser.reservedWords.contains(word) {
            if ["AND", "OR", "NOT", "IN", "BETWEEN", "CONTAINS", "LIKE", "MATCHES", "BEGINSWITH", "ENDSWITH"].contains(word)
                || word.hasPrefix("UTI-") {
                throw CDPredicateError(.missingOperand, "missing operand before \(token.quoted)", column: token.column)
            }
            throw CDPredicateError(.unexpectedToken,
                                 "unexpected reserved word \(token.quoted) (write #\(name) for a key of that name)",
                                 column: token.column)
        }
        advance()
        if callFollows {
            advance()
            let args = try parseList(closing: ")")
            return .function(args.isEmpty ? name : name + ":", args)
        }
        if current.isSymbol(":") {
            return try parseSelectorCall(first: name)
        }
        return .keyPath(PredicateKeyPath([.key(name)]))
    }

    /// `add:to:(1, 2)`, `canonical:(name)`: Foundation's printed form of a function call.
    private mutating func parseSelectorCall(first: String) throws(CDPredicateError) -> ExpressionNode {
        var selector = first
        while current.isSymbol(":") {
            advance()
            selector += ":"
            if case .identifier(let part, false) = current.kind, next.isSymbol(":") {
                selector += part
                advance()
            }
        }
        guard current.isSymbol("(") else {
            throw CDPredicateError(.unexpectedToken, "expected '(' after function name '\(selector)', found \(current.quoted)",
                                 column: current.column)
        }
        advance()
        return .function(selector, try parseList(closing: ")"))
    }

    /// The inside of `SUBQUERY(…)`, `CAST(…)`, `FETCH(…)`, `TERNARY(…)` and `FUNCTION(…)`, without the
    /// closing parenthesis.
    private mutating func parseSpecialForm(_ word: String, at token: Token) throws(CDPredicateError) -> ExpressionNode {
        switch word {
        case "SUBQUERY":
            let collection = try parseExpression()
            try expectComma(in: "SUBQUERY")
            guard case .variable(let variable) = current.kind else {
                throw CDPredicateError(.unexpectedToken, "SUBQUERY needs a $variable as its second argument, found \(current.quoted)",
                                     column: current.column)
            }
            advance()
            try expectComma(in: "SUBQUERY")
            let predicate = try requirePredicate(parseOr())
            return .subquery(collection: collection, variable: variable, predicate: predicate)
        case "CAST":
            let value = try parseExpression()
            try expectComma(in: "CAST")
            let typeToken = current
            guard case .constant(.string(let type)) = try parseExpression() else {
                throw CDPredicateError(.invalidStructure, "CAST needs a type name string such as \"NSDate\"",
                                     column: typeToken.column)
            }
            return try Self.foldCast(value, type: type, column: token.column)
        case "FETCH":
            let request = try parseExpression()
            try expectComma(in: "FETCH")
            let context = try parseExpression()
            try expectComma(in: "FETCH")
            return .fetch(request, context, try parseExpression())
        case "TERNARY":
            let condition = try requirePredicate(parseOr())
            try expectComma(in: "TERNARY")
            let ifTrue = try parseExpression()
            try expectComma(in: "TERNARY")
            return .ternary(condition, ifTrue, try parseExpression())
        default: // FUNCTION
            let receiver = try parseExpression()
            try expectComma(in: "FUNCTION")
            let selectorToken = current
            guard case .constant(.string(let selector)) = try parseExpression() else {
                throw CDPredicateError(.invalidStructure, "FUNCTION needs a selector string as its second argument",
                                     column: selectorToken.column)
            }
            var args: [ExpressionNode] = []
            while current.isSymbol(",") {
                advance()
                args.append(try parseExpression())
            }
            return .invocation(receiver: receiver, selector: selector, arguments: args)
        }
    }

    /// `CAST(constant, "NSDate")` is how Foundation writes a date literal, so it becomes a date constant.
    static func foldCast(
        _ value: ExpressionNode, type: String, column: Int
    ) throws(CDPredicateError) -> ExpressionNode {
        guard type == "NSDate", case .constant(let constant) = value else { return .cast(value, type: type) }
        switch constant {
        case .int(let i): return .constant(.date(PredicateDate.fromReferenceSeconds(Double(i))))
        case .double(let d): return .constant(.date(PredicateDate.fromReferenceSeconds(d)))
        case .date: return value
        case .string(let s):
            guard let date = PredicateDate.parseISO8601(s) else {
                throw CDPredicateError(.invalidLiteral,
                                     "invalid date \"\(s)\" in CAST (use 2024-01-01T00:00:00Z or 2024-01-01)",
                                     column: column)
            }
            return .constant(.date(date))
        default:
            return .cast(value, type: type)
        }
    }
}
