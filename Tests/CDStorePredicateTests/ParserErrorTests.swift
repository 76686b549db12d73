import Testing

@testable import CDStorePredicate

/// Each row: input, expected `description` (message and column) and code.
let errorCases: [(String, String, CDPredicateError.Code)] = [
    ("age >> 3", "unexpected '>' at column 6", .unexpectedToken),
    ("name == 'abc", "unterminated string at column 9", .unterminatedString),
    (#"name == "abc\"#, "unterminated string at column 9", .unterminatedString),
    ("name ==[x] 'a'", "unknown option 'x' in '[x]' (expected c, d, n or l) at column 9", .unknownOption),
    ("name ==[cq] 'a'", "unknown option 'q' in '[cq]' (expected c, d, n or l) at column 10", .unknownOption),
    ("name ==[] 'a'", "expected options such as c, d or cd inside '[]' at column 9", .unknownOption),
    ("age >", "missing operand after '>' at column 6", .missingOperand),
    ("age > AND b == 1", "missing operand after '>' at column 7", .missingOperand),
    ("a == 1 AND", "missing operand after 'AND' at column 11", .missingOperand),
    ("NOT", "missing operand after 'NOT' at column 4", .missingOperand),
    ("a + == 1", "unexpected '==' at column 5", .unexpectedToken),
    ("(a == 1", "unclosed '(' at column 1", .unbalancedParentheses),
    ("((a == 1)", "unclosed '(' at column 1", .unbalancedParentheses),
    ("a == 1)", "unbalanced ')' at column 7", .unbalancedParentheses),
    ("(a == 1 b", "expected ')' to close '(' at column 1, found 'b' at column 9", .unbalancedParentheses),
    ("userName NOT IN %@", "'NOT IN' is not supported; write NOT (x IN …) instead at column 10", .notIn),
    ("a == %y", "unknown format specifier '%y' at column 6", .unknownFormatSpecifier),
    ("a == %", "incomplete format specifier '%' at column 6", .unknownFormatSpecifier),
    ("a == %@", "too few format arguments: %@ is argument 1 but 0 given at column 6", .tooFewArguments),
    ("a == ?", "'?' is not valid in a predicate (use %@ for an argument) at column 6", .questionMark),
    ("age", "expected a comparison operator at end of predicate at column 4", .missingOperand),
    ("age AND b == 1", "expected a comparison operator, found 'AND' at column 5", .unexpectedToken),
    ("size > 3", "unexpected reserved word 'size' (write #size for a key of that name) at column 1", .unexpectedToken),
    ("a == 0x", "invalid number '0x' at column 6", .invalidLiteral),
    ("a == 12abc", "invalid number '12a' at column 6", .invalidLiteral),
    (#"a == '\u12'"#, #"invalid escape '\u12' at column 7"#, .invalidLiteral),
    ("a BETWEEN {1}", "BETWEEN needs two values {low, high}, got 1 at column 3", .invalidStructure),
    ("date > CAST('yesterday', 'NSDate')", #"invalid date "yesterday" in CAST (use 2024-01-01T00:00:00Z or 2024-01-01) at column 8"#, .invalidLiteral),
    ("SUBQUERY(a, b, b == 1).@count > 0", "SUBQUERY needs a $variable as its second argument, found 'b' at column 13", .unexpectedToken),
    ("-(a == 1) == 2", "expected an expression in parentheses, found a predicate at column 2", .invalidStructure),
    ("a == 1 2", "unexpected '2' at column 8", .unexpectedToken),
    ("a == ''''", "unexpected string \"\" at column 8", .unexpectedToken),
    ("ANY a", "expected a comparison operator after 'ANY' expression, found end of predicate at column 6", .missingOperand),
    ("a == $", "expected a name after '$' at column 6", .unexpectedToken),
    ("a ~ 1", "unexpected '~' at column 3", .unexpectedToken),
    ("a == %%", "'%%' (a literal '%') is only valid inside a quoted string at column 6", .unexpectedToken),
]

@Suite struct ParserErrorTests {
    @Test(arguments: errorCases)
    func error(input: String, expected: String, code: CDPredicateError.Code) {
        do {
            let node = try PredicateParser.parse(input)
            Issue.record("parsed as \(node.format)")
        } catch {
            #expect(error.description == expected)
            #expect(error.code == code)
        }
    }

    @Test func caretRendering() {
        do {
            _ = try PredicateParser.parse("age >> 3")
            Issue.record("should not parse")
        } catch {
            #expect(error.rendered(in: "age >> 3") == """
                error: predicate: unexpected '>' at column 6
                  age >> 3
                       ^
                """)
        }
    }

    @Test func columnsCountUnicodeScalars() {
        #expect(throws: CDPredicateError(.unexpectedToken, "unexpected '>'", column: 13)) {
            try PredicateParser.parse("name == 'é' >> 1")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 2000) + "a == 1" + String(repeating: ")", count: 2000)
        let deepError = #expect(throws: CDPredicateError.self) { try PredicateParser.parse(deep) }
        #expect(deepError?.code == .tooDeep)
        #expect(deepError?.message == "predicate nested too deeply (limit 500)")
        let notChain = String(repeating: "NOT ", count: 2000) + "a == 1"
        let notChainError = #expect(throws: CDPredicateError.self) { try PredicateParser.parse(notChain) }
        #expect(notChainError?.code == .tooDeep)
        #expect(notChainError?.message == "predicate nested too deeply (limit 500)")
        let minus = "a == " + String(repeating: "-", count: 2000) + "1"
        let minusError = #expect(throws: CDPredicateError.self) { try PredicateParser.parse(minus) }
        #expect(minusError?.code == .tooDeep)
        #expect(minusError?.message == "predicate nested too deeply (limit 500)")
        let power = "a == " + Array(repeating: "2", count: 2000).joined(separator: " ** ")
        let powerError = #expect(throws: CDPredicateError.self) { try PredicateParser.parse(power) }
        #expect(powerError?.code == .tooDeep)
        #expect(powerError?.message == "predicate nested too deeply (limit 500)")
        do {
            _ = try PredicateParser.parse(deep)
        } catch {
            #expect(error.code == .tooDeep)
            #expect(error.message == "predicate nested too deeply (limit 500)")
        }
    }

    @Test func nestingWithinTheLimitParses() throws {
        let depth = 200
        let nested = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        #expect(try PredicateParser.parse(nested).format == "a == 1")
        let expr = String(repeating: "(", count: depth) + "a + 1" + String(repeating: ")", count: depth) + " == 2"
        #expect(try PredicateParser.parse(expr).format == "a + 1 == 2")
    }
}
