import Foundation
import Testing

@testable import CDStorePredicate

/// Each row: input text and the canonical printed form of what it parses to.
let printedForms: [(String, String)] = [
    // Comparison operators, every spelling.
    ("age = 3", "age == 3"),
    ("age == 3", "age == 3"),
    ("age != 3", "age != 3"),
    ("age <> 3", "age != 3"),
    ("age < 3", "age < 3"),
    ("age <= 3", "age <= 3"),
    ("age =< 3", "age <= 3"),
    ("age > 3", "age > 3"),
    ("age >= 3", "age >= 3"),
    ("age => 3", "age >= 3"),
    ("counter BETWEEN {2, 5}", "counter BETWEEN {2, 5}"),
    ("name IN { 'Ben', 'Melissa', 'Nick' }", #"name IN {"Ben", "Melissa", "Nick"}"#),
    ("name in tags", "name IN tags"),
    ("name contains[cd] 'citroen'", #"name CONTAINS[cd] "citroen""#),
    ("firstName BEGINSWITH[cd] $FIRST_NAME", "firstName BEGINSWITH[cd] $FIRST_NAME"),
    ("name endswith 'x'", #"name ENDSWITH "x""#),
    (#"lastName like[c] "S*""#, #"lastName LIKE[c] "S*""#),
    ("SELF LIKE[c] 'a*a'", #"SELF LIKE[c] "a*a""#),
    ("SELF MATCHES '.*(CAT){3,}(?!CA).*'", #"SELF MATCHES ".*(CAT){3,}(?!CA).*""#),
    (#"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf""#,
     #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf""#),
    (#"type uti-equals "public.jpeg""#, #"type UTI-EQUALS "public.jpeg""#),
    // Options in any case and order.
    ("a ==[c] 'x'", #"a ==[c] "x""#),
    ("a ==[D] 'x'", #"a ==[d] "x""#),
    ("a LIKE[dc] 'x'", #"a LIKE[cd] "x""#),
    ("a BEGINSWITH[n] 'x'", #"a BEGINSWITH[n] "x""#),
    ("a BEGINSWITH[L] 'x'", #"a BEGINSWITH[l] "x""#),
    ("a CONTAINS[cdnl] 'x'", #"a CONTAINS[cdnl] "x""#),
    // Quantifiers.
    ("ANY employees.firstName like 'Matthew'", #"ANY employees.firstName LIKE "Matthew""#),
    ("some children.age < 18", "ANY children.age < 18"),
    ("ALL children.age > 12", "ALL children.age > 12"),
    ("NONE children.age < 18", "NONE children.age < 18"),
    // Literals.
    ("a == 27", "a == 27"),
    ("a == 2.71828", "a == 2.71828"),
    ("a == 9.2e-5", "a == 9.2e-05"),
    ("a == 1E3", "a == 1000"),
    ("a == 0x1F", "a == 31"),
    ("a == 0o17", "a == 15"),
    ("a == 0b101", "a == 5"),
    ("a == -5", "a == -5"),
    ("a == TRUE", "a == 1"),
    ("a == yes", "a == 1"),
    ("a == FALSE", "a == 0"),
    ("a == No", "a == 0"),
    ("a == NULL", "a == nil"),
    ("a == nil", "a == nil"),
    ("a IN {}", "a IN {}"),
    (#"a == "it's""#, #"a == "it's""#),
    ("a == 'say \"hi\"'", #"a == "say \"hi\"""#),
    (#"a == 'tab\there'"#, #"a == "tab\there""#),
    (#"a == '\x41\u00e9\101'"#, #"a == "AéA""#),
    ("a == '%@'", #"a == "%@""#),
    ("a == '100%%'", #"a == "100%""#),
    (#"a == "$VAR""#, #"a == "$VAR""#),
    ("date > CAST(0, 'NSDate')", #"date > CAST(0.000000, "NSDate")"#),
    (#"date > CAST(-978307200.0, "NSDate")"#, #"date > CAST(-978307200.000000, "NSDate")"#),
    (#"date > CAST("2001-01-02T00:00:00Z", "NSDate")"#, #"date > CAST(86400.000000, "NSDate")"#),
    ("date > CAST('2001-01-01', 'NSDate')", #"date > CAST(0.000000, "NSDate")"#),
    (#"dateAdded > CAST(CAST(now(), "NSNumber") - 7257600, "NSDate")"#,
     #"dateAdded > CAST(CAST(now(), "NSNumber") - 7257600, "NSDate")"#),
    ("a == CAST('5', 'NSNumber')", #"a == CAST("5", "NSNumber")"#),
    // Keywords are case-insensitive.
    ("truepredicate", "TRUEPREDICATE"),
    ("FALSEPREDICATE", "FALSEPREDICATE"),
    ("a == 1 and b == 2", "a == 1 AND b == 2"),
    ("a == 1 && b == 2", "a == 1 AND b == 2"),
    ("a == 1 or b == 2", "a == 1 OR b == 2"),
    ("a == 1 || b == 2", "a == 1 OR b == 2"),
    ("not a == 1", "NOT a == 1"),
    ("!a == 1", "NOT a == 1"),
    ("NOT (counter IN %@)", "NOT counter IN {1, 2}"),
    // Precedence.
    ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
    ("NOT a == 1 OR b == 2", "NOT a == 1 OR b == 2"),
    ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
    ("a == 1 AND b == 2 AND c == 3", "a == 1 AND b == 2 AND c == 3"),
    ("available = true or value >= 1 and value <= 10.5", "available == 1 OR (value >= 1 AND value <= 10.5)"),
    ("a + b * c == 1", "a + b * c == 1"),
    ("(a + b) * c == 1", "(a + b) * c == 1"),
    ("(n + 1) * 2 == 6", "(n + 1) * 2 == 6"),
    ("((n + 1)) * 2 == 6", "(n + 1) * 2 == 6"),
    ("((a == 1))", "a == 1"),
    ("a - b - c == 0", "a - b - c == 0"),
    ("a - (b - c) == 0", "a - (b - c) == 0"),
    ("2 ** 3 ** 2 == x", "2 ** 3 ** 2 == x"),
    ("(2 ** 3) ** 2 == x", "(2 ** 3) ** 2 == x"),
    ("-x ** 2 == 4", "-x ** 2 == 4"),
    ("-(a + b) == 4", "-(a + b) == 4"),
    ("a / 2 > 1", "a / 2 > 1"),
    // Bitwise operators (undocumented).
    ("(key & 1) > 0", "bitwiseAnd:with:(key, 1) > 0"),
    ("(key | 1) > 0", "bitwiseOr:with:(key, 1) > 0"),
    ("(key ^ 1) > 0", "bitwiseXor:with:(key, 1) > 0"),
    // Key paths.
    ("department.manager.name == 'x'", #"department.manager.name == "x""#),
    ("SELF == 'x'", #"SELF == "x""#),
    ("SELF.x == 1", "x == 1"),
    ("#size > 3", "#size > 3"),
    ("employees.@count > 2", "employees.@count > 2"),
    ("employees.@sum.salary > 2", "employees.@sum.salary > 2"),
    ("@sum.items.price < 1000", "@sum.items.price < 1000"),
    ("expenses.@avg.doubleValue < 200", "expenses.@avg.doubleValue < 200"),
    ("a.@min.b == 1 AND a.@max.b == 2", "a.@min.b == 1 AND a.@max.b == 2"),
    ("items[SIZE] > 3", "items[SIZE] > 3"),
    ("items[first] == 1", "items[FIRST] == 1"),
    ("items[LAST].name == 'x'", #"items[LAST].name == "x""#),
    ("items[2] == 1", "items[2] == 1"),
    ("dict['k'] == 1", #"dict["k"] == 1"#),
    // Functions and special forms.
    ("count(pages) > 1", "count:(pages) > 1"),
    ("count:(pages) > 1", "count:(pages) > 1"),
    ("canonical:(optionalString) == 'x'", #"canonical:(optionalString) == "x""#),
    ("sum({1, 2}) == 3", "sum:({1, 2}) == 3"),
    ("now() > d", "now() > d"),
    ("add:to:(1, 2) == 3", "add:to:(1, 2) == 3"),
    ("uppercase(name) == 'A'", #"uppercase:(name) == "A""#),
    ("SUBQUERY(residents, $r, $r.firstname == 'Jane' AND $r.lastname == 'Doe').@count > 0",
     #"SUBQUERY(residents, $r, $r.firstname == "Jane" AND $r.lastname == "Doe").@count > 0"#),
    ("TERNARY(a == 1, 'x', 'y') == 'x'", #"TERNARY(a == 1, "x", "y") == "x""#),
    ("FUNCTION('/a/b', 'lastPathComponent') == 'b'", #"FUNCTION("/a/b", "lastPathComponent") == "b""#),
    ("FUNCTION(SELF, 'foo:', 1) == 'b'", #"FUNCTION(SELF, "foo:", 1) == "b""#),
    ("FETCH(a, b, NO) == 1", "FETCH(a, b, 0) == 1"),
    ("$x := 5 == 5", "$x := 5 == 5"),
    ("ANYKEY == 'x'", #"ANYKEY == "x""#),
    ("a UNION b == c", "a UNION b == c"),
    ("$INPUT BETWEEN { $LOWER, $UPPER }", "$INPUT BETWEEN {$LOWER, $UPPER}"),
    ("true == true", "1 == 1"),
    ("uuid == $UUID", "uuid == $UUID"),
    ("oneToOne.name == $NAME OR string == $NEEDLE", "oneToOne.name == $NAME OR string == $NEEDLE"),
    ("function == 1", "function == 1"),
]

@Suite struct ParserTests {
    @Test(arguments: printedForms)
    func printedForm(input: String, expected: String) throws {
        let args: [FormatArgument] = input.contains("%@") && !input.contains("'%@'") ? [.array([.int(1), .int(2)])] : []
        let node = try PredicateParser.parse(input, arguments: args)
        #expect(node.format == expected)
    }

    @Test(arguments: printedForms)
    func roundTrip(input: String, expected: String) throws {
        let args: [FormatArgument] = input.contains("%@") && !input.contains("'%@'") ? [.array([.int(1), .int(2)])] : []
        let node = try PredicateParser.parse(input, arguments: args)
        let again = try PredicateParser.parse(node.format)
        #expect(again.normalizingNumbers() == node.normalizingNumbers(), "\(node.format)")
        #expect(again.format == node.format)
    }

    @Test func precedenceTrees() throws {
        let a = PredicateNode.comparison(.init(left: .keyPath("a"), op: .equal, right: .constant(.int(1))))
        let b = PredicateNode.comparison(.init(left: .keyPath("b"), op: .equal, right: .constant(.int(2))))
        let c = PredicateNode.comparison(.init(left: .keyPath("c"), op: .equal, right: .constant(.int(3))))
        #expect(try PredicateParser.parse("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try PredicateParser.parse("NOT a == 1 OR b == 2") == .or([.not(a), b]))
        #expect(try PredicateParser.parse("NOT (a == 1 OR b == 2)") == .not(.or([a, b])))
        #expect(try PredicateParser.parse("a == 1 AND (b == 2 AND c == 3)") == .and([a, .and([b, c])]))
        #expect(try PredicateParser.parse("a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
    }

    @Test func expressionTrees() throws {
        let e = try PredicateParser.parseExpression("(n + 1) * 2")
        #expect(e == .arithmetic(.multiply, .arithmetic(.add, .keyPath("n"), .constant(.int(1))), .constant(.int(2))))
        #expect(try PredicateParser.parseExpression("2 ** 3 ** 2")
            == .arithmetic(.power, .constant(.int(2)), .arithmetic(.power, .constant(.int(3)), .constant(.int(2)))))
        #expect(try PredicateParser.parseExpression("employees.@sum.salary")
            == .keyPath(PredicateKeyPath([.key("employees"), .collectionOperator(.sum), .key("salary")])))
        #expect(try PredicateParser.parseExpression("$r.name") == .member(.variable("r"), PredicateKeyPath("name")))
        #expect(try PredicateParser.parseExpression("oneToMany.@count") == .keyPath("oneToMany.@count"))
        #expect(try PredicateParser.parseExpression("now()") == .function("now", []))
        #expect(try PredicateParser.parseExpression("canonical:(optionalString)")
            == .function("canonical:", [.keyPath("optionalString")]))
        #expect(try PredicateParser.parseExpression("{1, 'a'}") == .constant(.array([.int(1), .string("a")])))
        #expect(try PredicateParser.parseExpression("{1, a}") == .aggregate([.constant(.int(1)), .keyPath("a")]))
        #expect(try PredicateParser.parseExpression("-a") == .negate(.keyPath("a")))
        #expect(try PredicateParser.parseExpression("-2.5") == .constant(.double(-2.5)))
        #expect(try PredicateParser.parseExpression("SELF") == .evaluatedObject)
        #expect(try PredicateParser.parseExpression("x[SIZE]") == .index(.keyPath("x"), .size))
        #expect(try PredicateParser.parseExpression("$x := a") == .assignment(variable: "x", value: .keyPath("a")))
    }

    @Test func comparisonFields() throws {
        guard case .comparison(let c) = try PredicateParser.parse("ANY tags.name BEGINSWITH[cd] 'a'") else {
            Issue.record("not a comparison")
            return
        }
        #expect(c.modifier == .any)
        #expect(c.left == .keyPath("tags.name"))
        #expect(c.op == .beginsWith)
        #expect(c.right == .constant(.string("a")))
        #expect(c.options == [.caseInsensitive, .diacriticInsensitive])
    }

    @Test func whitespaceAndNewlines() throws {
        #expect(try PredicateParser.parse("  a\n==\t1  ").format == "a == 1")
    }

    @Test func integerOverflowBecomesDouble() throws {
        #expect(try PredicateParser.parseExpression("99999999999999999999") == .constant(.double(1e20)))
    }
}

extension PredicateNode {
    /// Booleans print as 1/0 and integral doubles without a fraction (as Foundation does), so they read back
    /// as integers; comparing trees modulo that is what a round trip can promise.
    func normalizingNumbers() -> PredicateNode {
        switch self {
        case .constant: return self
        case .not(let p): return .not(p.normalizingNumbers())
        case .and(let items): return .and(items.map { $0.normalizingNumbers() })
        case .or(let items): return .or(items.map { $0.normalizingNumbers() })
        case .comparison(var c):
            c.left = c.left.normalizingNumbers()
            c.right = c.right.normalizingNumbers()
            return .comparison(c)
        }
    }
}

extension PredicateValue {
    func normalizingNumbers() -> PredicateValue {
        switch self {
        case .bool(let b): return .int(b ? 1 : 0)
        case .double(let d) where d == d.rounded() && abs(d) < 1e15: return .int(Int64(d))
        case .date(let d):
            // Dates print with microsecond precision.
            return .date(Date(timeIntervalSinceReferenceDate: (d.timeIntervalSinceReferenceDate * 1e6).rounded() / 1e6))
        case .array(let items): return .array(items.map { $0.normalizingNumbers() })
        default: return self
        }
    }
}

extension ExpressionNode {
    func normalizingNumbers() -> ExpressionNode {
        switch self {
        case .constant(let v): return .constant(v.normalizingNumbers())
        case .member(let b, let p): return .member(b.normalizingNumbers(), p)
        case .aggregate(let m): return .aggregate(m.map { $0.normalizingNumbers() })
        case .function(let n, let a): return .function(n, a.map { $0.normalizingNumbers() })
        case .arithmetic(let op, let l, let r): return .arithmetic(op, l.normalizingNumbers(), r.normalizingNumbers())
        case .negate(let e):
            // `-YES` prints as `-1`, which reads back as the literal -1 (a minus folds into a number literal).
            switch e.normalizingNumbers() {
            case .constant(.int(let i)) where i != .min: return .constant(.int(-i))
            case .constant(.double(let d)): return .constant(PredicateValue.double(-d).normalizingNumbers())
            case let inner: return .negate(inner)
            }
        case .index(let b, .expression(let i)): return .index(b.normalizingNumbers(), .expression(i.normalizingNumbers()))
        case .index(let b, let i): return .index(b.normalizingNumbers(), i)
        case .subquery(let c, let v, let p):
            return .subquery(collection: c.normalizingNumbers(), variable: v, predicate: p.normalizingNumbers())
        case .cast(let e, let t): return .cast(e.normalizingNumbers(), type: t)
        case .ternary(let p, let a, let b): return .ternary(p.normalizingNumbers(), a.normalizingNumbers(), b.normalizingNumbers())
        case .assignment(let v, let e): return .assignment(variable: v, value: e.normalizingNumbers())
        case .invocation(let r, let s, let a):
            return .invocation(receiver: r.normalizingNumbers(), selector: s, arguments: a.map { $0.normalizingNumbers() })
        case .fetch(let a, let b, let c): return .fetch(a.normalizingNumbers(), b.normalizingNumbers(), c.normalizingNumbers())
        case .setOperation(let op, let l, let r): return .setOperation(op, l.normalizingNumbers(), r.normalizingNumbers())
        default: return self
        }
    }
}

/// Apple's documented examples that take format arguments (from the Predicate Programming Guide).
@Suite struct DocumentedExampleTests {
    static let start = Date(timeIntervalSinceReferenceDate: 0), end = Date(timeIntervalSinceReferenceDate: 86400)

    static let cases: [(String, [FormatArgument], String)] = [
        ("%K == %@", [.keyPath("name"), .string("x")], #"name == "x""#),
        ("author != %@", [.string("Ann")], #"author != "Ann""#),
        ("salary > %@", [.int(5000)], "salary > 5000"),
        ("date >= %@ AND date < %@", [.date(start), .date(end)],
         #"date >= CAST(0.000000, "NSDate") AND date < CAST(86400.000000, "NSDate")"#),
        ("attr BETWEEN %@", [.array([.int(1), .int(10)])], "attr BETWEEN {1, 10}"),
        ("counter IN %@", [.array([.int(1), .int(2)])], "counter IN {1, 2}"),
        ("NOT (counter IN %@)", [.array([.int(1)])], "NOT counter IN {1}"),
        ("(firstName == %@) || (firstName = nil)", [.null], "firstName == nil OR firstName == nil"),
        ("SELF MATCHES %@", [.string("[a-z]+@[a-z]+")], #"SELF MATCHES "[a-z]+@[a-z]+""#),
        ("lastName like %@", [.string("prefix*suffix")], #"lastName LIKE "prefix*suffix""#),
        ("%K CONTAINS[cd] %@", [.text("name"), .text("citroen")], #"name CONTAINS[cd] "citroen""#),
        ("age == %i AND n == %ld AND m == %lld AND u == %u AND h == %hi AND q == %qi",
         [.text("1"), .int(2), .text("-3"), .int(4), .int(5), .int(6)],
         "age == 1 AND n == 2 AND m == -3 AND u == 4 AND h == 5 AND q == 6"),
        ("x == %x AND y == %X AND z == %o", [.int(255), .int(16), .int(8)], "x == 255 AND y == 16 AND z == 8"),
        ("price < %f AND weight > %g AND d == %e", [.text("9.5"), .int(2), .double(1e-3)],
         "price < 9.5 AND weight > 2 AND d == 0.001"),
        ("initial == %c", [.int(65)], #"initial == "A""#),
        ("%K.@count > %d", [.keyPath("employees"), .int(2)], "employees.@count > 2"),
        ("%K == 'literal %@'", [.keyPath("a")], #"a == "literal %@""#),
        // `%K` after a dot, as app code writes it (Wire's conversation filters, objc.io's Moody, CoreDataPlus).
        ("ANY %K.%K == %@", [.keyPath("participants"), .keyPath("user.name"), .string("x")],
         #"ANY participants.user.name == "x""#),
        ("ANY moods.%K = NULL", [.keyPath("country")], "ANY moods.country == nil"),
        ("(SUBQUERY(%K, $x, $x.%K >= %lu).@count == 0)", [.keyPath("items"), .keyPath("age"), .int(3)],
         "SUBQUERY(items, $x, $x.age >= 3).@count == 0"),
        ("%K == $FETCH_SOURCE.%K", [.keyPath("owner"), .keyPath("name")], "owner == $FETCH_SOURCE.name"),
    ]

    @Test func aSpecifierOtherThanKAfterADotIsRefused() {
        #expect(throws: CDPredicateError.self) { try PredicateParser.parse("a.%@ == 1", arguments: [.string("b")]) }
        #expect(throws: CDPredicateError.self) { try PredicateParser.parse("a.%K == 1", arguments: [.int(2)]) }
        #expect(throws: CDPredicateError.self) { try PredicateParser.parse("a.%K == 1") }
    }

    @Test(arguments: cases)
    func example(text: String, arguments: [FormatArgument], expected: String) throws {
        #expect(try PredicateParser.parse(text, arguments: arguments).format == expected)
    }
}
