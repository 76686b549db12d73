import Foundation
import Testing

@testable import CDStorePredicate

/// A small object graph: a person with a department (to-one) and children (to-many).
private func person() -> EvaluableDictionary {
    let manager = EvaluableDictionary(["name": .string("Zoë")])
    let department = EvaluableDictionary(["name": .string("R&D"), "manager": .object(manager)])
    let kids: [EvaluationValue] = [
        .object(EvaluableDictionary(["name": .string("Ann"), "age": .int(8), "toys": .collection([.string("ball")])])),
        .object(EvaluableDictionary(["name": .string("Bob"), "age": .int(15), "toys": .collection([])])),
        .object(EvaluableDictionary(["name": .string("Cy"), "age": .double(17.5), "toys": .collection([])])),
    ]
    return EvaluableDictionary([
        "name": .string("Café con Leche"),
        "given": .string("Straße"),
        "age": .int(40),
        "salary": .double(1234.5),
        "flag": .bool(true),
        "nickname": .null,
        "born": .date(Date(timeIntervalSinceReferenceDate: 86400)),
        "tags": .collection([.string("red"), .string("Green")]),
        "department": .object(department),
        "children": .collection(kids),
        "noKids": .collection([]),
        "mask": .int(6),
        "email": .string("a.b@example.com"),
        "numberText": .string("42"),
    ])
}

/// Each row: predicate and expected result against `person()`.
let evaluationCases: [(String, Bool)] = [
    // Equality and ordering across numeric kinds.
    ("age == 40", true), ("age = 40.0", true), ("age != 41", true), ("age <> 40", false),
    ("age < 41", true), ("age <= 40", true), ("age > 39.5", true), ("age >= 41", false), ("age =< 40", true), ("age => 40", true),
    ("salary > 1234", true), ("flag == YES", true), ("flag == 1", true), ("flag == NO", false),
    ("age BETWEEN {40, 50}", true), ("age BETWEEN {41, 50}", false), ("age BETWEEN {30, 40}", true),
    ("age IN {1, 40}", true), ("age IN {1, 2}", false), ("'Leche' IN name", true),
    ("numberText == '42'", true), ("age == '40'", true), ("age > '39.5'", true), ("flag == 'yes'", true),
    // NULL semantics of the SQL store.
    ("nickname == nil", true), ("nickname != nil", false), ("name != nil", true), ("name == nil", false),
    ("nickname != 'v'", false), ("nickname == 'v'", false), ("nickname < 3", false), ("nickname > 3", false),
    ("missingKey == nil", true), ("nickname IN {'a'}", false), ("nickname CONTAINS 'a'", false),
    ("nickname BEGINSWITH 'a'", false), ("NOT (nickname != 'v')", true),
    // Strings with options; [c] is Unicode case folding, [d] strips diacritics.
    ("name CONTAINS[cd] 'CAFE'", true), ("name CONTAINS 'CAFE'", false), ("name CONTAINS[c] 'CAFE'", false),
    ("name CONTAINS[c] 'CAFÉ'", true), ("name CONTAINS[d] 'Cafe'", true),
    ("name BEGINSWITH 'Café'", true), ("name BEGINSWITH[cd] 'cafe c'", true), ("name ENDSWITH 'Leche'", true),
    ("name ENDSWITH[c] 'LECHE'", true), ("given ==[c] 'STRASSE'", true), ("given == 'STRASSE'", false),
    ("name LIKE 'Caf* con ?eche'", true), ("name LIKE 'Caf*'", true), ("name LIKE 'caf*'", false),
    ("name LIKE[cd] 'cafe*'", true), ("name LIKE '*Leche'", true), ("name LIKE 'Caf?'", false),
    ("email MATCHES '[a-z.]+@[a-z]+\\\\.com'", true), ("email MATCHES '[a-z]+'", false),
    ("email MATCHES[c] 'A.*'", true), ("email MATCHES 'a|a.b@example.com'", true),
    ("name > 'Cafe'", true), ("name < 'Cafe'", false), ("name >[cd] 'cafe'", true),
    // Collections and quantifiers.
    ("ANY tags == 'red'", true), ("ALL tags == 'red'", false), ("NONE tags == 'blue'", true),
    ("ANY tags ==[c] 'GREEN'", true), ("tags CONTAINS 'red'", true), ("tags CONTAINS 'blue'", false),
    ("ANY children.age > 16", true), ("ALL children.age > 5", true), ("ALL children.age > 10", false),
    ("NONE children.age > 20", true), ("SOME children.name == 'Bob'", true),
    ("children.name == 'Cy'", true), ("ALL noKids.age > 100", true), ("ANY noKids.age > 0", false),
    ("NONE noKids.age > 0", true), ("children.name IN {'Ann', 'Zed'}", true), ("children.name IN {'Zed'}", false),
    ("children.age BETWEEN {16, 18}", true), ("children.age BETWEEN {20, 30}", false),
    // Key paths, to-one and collection operators.
    ("department.name == 'R&D'", true), ("department.manager.name == 'Zoë'", true), ("SELF.department.name == 'R&D'", true),
    ("children.@count == 3", true), ("children.@count > 3", false), ("noKids.@count == 0", true),
    ("children.@sum.age == 40.5", true), ("children.@avg.age == 13.5", true), ("children.@min.age == 8", true),
    ("children.@max.age == 17.5", true), ("children.toys.@count == 1", true), ("noKids.@avg.age == nil", true),
    ("tags[FIRST] == 'red'", true), ("tags[LAST] == 'Green'", true), ("tags[SIZE] == 2", true), ("tags[1] == 'Green'", true),
    ("department['name'] == 'R&D'", true),
    // SUBQUERY.
    ("SUBQUERY(children, $c, $c.age > 10).@count == 2", true),
    ("SUBQUERY(children, $c, $c.age > 10 AND $c.name BEGINSWITH 'B').@count == 1", true),
    ("SUBQUERY(children, $c, $c.age > 100).@count > 0", false),
    // Arithmetic and functions.
    ("age + 2 == 42", true), ("age - 50 == -10", true), ("age * 2 == 80", true), ("age / 16 == 2.5", true),
    ("2 ** 3 ** 2 == 512", true), ("-age == -40", true), ("(age + 2) * 2 == 84", true),
    ("(mask & 2) > 0", true), ("(mask & 1) > 0", false), ("(mask | 1) == 7", true), ("(mask ^ 2) == 4", true),
    ("sum(children.age) == 40.5", true), ("count(tags) == 2", true), ("average({1, 2, 3}) == 2", true),
    ("max({1, 5, 3}) == 5", true), ("min({4, 2}) == 2", true), ("median({3, 1, 2, 10}) == 2.5", true),
    ("sqrt(16) == 4", true), ("abs(-3) == 3", true), ("floor(2.7) == 2", true), ("ceiling(2.1) == 3", true),
    ("uppercase(given) == 'STRASSE'", true), ("lowercase('ABC') == 'abc'", true), ("add:to:(1, 2) == 3", true),
    ("canonical:(name) == 'cafe con leche'", true), ("now() > born", true), ("raise:toPower:(2, 10) == 1024", true),
    ("TERNARY(age > 30, 'old', 'young') == 'old'", true),
    // Dates and casts.
    ("born == CAST(86400, 'NSDate')", true), ("born > CAST('2001-01-01', 'NSDate')", true),
    ("born < CAST('2001-01-02T00:00:01Z', 'NSDate')", true), ("CAST(born, 'NSNumber') == 86400", true),
    ("CAST(age, 'NSString') == '40'", true), ("born > CAST(CAST(now(), 'NSNumber') - 1e12, 'NSDate')", true),
    // Compound predicates and constants.
    ("age == 40 AND name BEGINSWITH 'C'", true), ("age == 41 OR name BEGINSWITH 'C'", true),
    ("NOT age == 40", false), ("TRUEPREDICATE", true), ("FALSEPREDICATE", false),
    ("age == 41 OR age == 40 AND flag == YES", true), ("NOT age == 41 OR age == 0", true),
]

@Suite struct EvaluatorTests {
    @Test(arguments: evaluationCases)
    func evaluate(predicate: String, expected: Bool) throws {
        let node = try PredicateParser.parse(predicate)
        #expect(try node.evaluate(with: person()) == expected)
    }

    /// `length` of a string is NSString's, in UTF-16 units; other keys of a string have no value.
    @Test func aStringHasItsLength() throws {
        #expect(try PredicateParser.parse("name.length == 14 AND given.length == 6").evaluate(with: person()))
        let emoji = EvaluableDictionary(["text": .string("é🙂")])
        let half = try PredicateEvaluator().value(of: PredicateParser.parseExpression("multiply:by:(text.length, 0.5)"), with: .object(emoji))
        guard case .double(let value) = half else { Issue.record("not a double: \(half)"); return }
        #expect(value == 1.5)
        #expect(try PredicateParser.parse("name.size == nil").evaluate(with: person()))
    }

    @Test func variablesAtEvaluation() throws {
        let node = try PredicateParser.parse("age > $MIN AND name BEGINSWITH[c] $PREFIX")
        #expect(try node.evaluate(with: person(), variables: ["MIN": .int(30), "PREFIX": .string("caf")]))
        #expect(throws: CDPredicateError(.unboundVariable, "no value for variable $MIN")) {
            try node.evaluate(with: person())
        }
    }

    @Test func substitution() throws {
        let node = try PredicateParser.parse("age BETWEEN {$LOW, $HIGH} AND SUBQUERY(children, $c, $c.age > $LOW).@count == 2")
        #expect(node.freeVariables == ["LOW", "HIGH"])
        let bound = try node.substituting(variables: ["LOW": .int(10), "HIGH": .int(50)])
        #expect(bound.format == "age BETWEEN {10, 50} AND SUBQUERY(children, $c, $c.age > 10).@count == 2")
        #expect(bound.freeVariables.isEmpty)
        #expect(try bound.evaluate(with: person()))
        #expect(throws: CDPredicateError(.unboundVariable, "no value for variable $HIGH")) {
            try node.substituting(variables: ["LOW": .int(1)])
        }
        let nilMatch = try PredicateParser.parse("nickname == $N").substituting(variables: ["N": .null])
        #expect(try nilMatch.evaluate(with: person()))
    }

    @Test func formatArgumentsBindAtParse() throws {
        let node = try PredicateParser.parse(
            "%K == %@ AND age > %d AND salary > %f AND tags CONTAINS %@ AND age IN %@",
            arguments: [.keyPath("department.name"), .text("R&D"), .text("39"), .text("1000.5"), .string("red"),
                        .array([.int(40), .int(41)])])
        #expect(node.format == #"department.name == "R&D" AND age > 39 AND salary > 1000.5 AND tags CONTAINS "red" AND age IN {40, 41}"#)
        #expect(try node.evaluate(with: person()))
        // A CLI string that looks like a number stays a string in the tree, and still compares numerically.
        let text = try PredicateParser.parse("age == %@", arguments: [.text("40")])
        #expect(text == .comparison(.init(left: .keyPath("age"), op: .equal, right: .constant(.string("40")))))
        #expect(try text.evaluate(with: person()))
    }

    @Test func formatArgumentErrors() throws {
        #expect(throws: CDPredicateError(.argumentMismatch, "%d needs an integer, got text \"abc\"", column: 7)) {
            try PredicateParser.parse("age > %d", arguments: [.text("abc")])
        }
        #expect(throws: CDPredicateError(.argumentMismatch, "%f needs a number, got text \"x\"", column: 7)) {
            try PredicateParser.parse("age > %f", arguments: [.text("x")])
        }
        #expect(throws: CDPredicateError(.argumentMismatch, "%K needs a key path, got integer 3", column: 1)) {
            try PredicateParser.parse("%K == 1", arguments: [.int(3)])
        }
        #expect(throws: CDPredicateError(.tooManyArguments, "too many format arguments: 2 given, 1 used")) {
            try PredicateParser.parse("a == %@", arguments: [.int(1), .int(2)])
        }
        #expect(throws: CDPredicateError(.tooFewArguments, "too few format arguments: %@ is argument 2 but 1 given", column: 18)) {
            try PredicateParser.parse("a == %@ AND b == %@", arguments: [.int(1)])
        }
        // Quoting suppresses substitution, so no argument is consumed.
        #expect(try PredicateParser.parse("a == '%@'").format == #"a == "%@""#)
    }

    /// A string against a number, boolean or date is a type mismatch, unless it is a constant compared with a key
    /// path, which takes its type (Evaluator+Types.swift); string operators need strings. As SQL has it.
    @Test(arguments: ["numberText == 42", "numberText > 41", "'2' <= 2", "2 == '2'", "age == 'forty'", "flag == 'maybe'",
                      "born > 'yesterday'", "name == 5", "age CONTAINS '4'", "age BEGINSWITH '4'", "salary LIKE '1*'",
                      "flag MATCHES '1'", "age IN {'x', 40}", "2 BETWEEN {'1', 3}", "5 IN name"])
    func typeMismatches(predicate: String) throws {
        let node = try PredicateParser.parse(predicate)
        #expect { try node.evaluate(with: person()) } throws: { error in
            (error as? CDPredicateError)?.code == .evaluation && "\(error)".contains("type mismatch")
        }
    }

    @Test func unsupportedConstructsThrow() throws {
        for text in ["FUNCTION(name, 'length') == 1", "FETCH(a, b, NO) == 1", "ANYKEY == 1", "type UTI-EQUALS 'public.jpeg'",
                     "($x := 1) == 1", "a UNION b == c", "hash(name) == 1", "a.@distinctUnionOfObjects.b == 1"] {
            let node = try PredicateParser.parse(text)
            let error = #expect(throws: CDPredicateError.self, "\(text)") { try node.evaluate(with: person()) }
            #expect(error?.code == .unsupported, "\(text): \(String(describing: error))")
        }
    }

    @Test func invalidRegexThrows() throws {
        let node = try PredicateParser.parse("name MATCHES '('")
        #expect(throws: CDPredicateError(.invalidRegularExpression, "invalid regular expression \"(\" in MATCHES")) {
            try node.evaluate(with: person())
        }
    }

    @Test func evaluatingAgainstAPlainValue() throws {
        let evaluator = PredicateEvaluator()
        #expect(try evaluator.evaluate(PredicateParser.parse("SELF LIKE[c] 'a*a'"), with: .string("Anna")))
        #expect(try evaluator.evaluate(PredicateParser.parse("SELF MATCHES '.*(CAT){3,}(?!CA).*'"), with: .string("CATCATCATX")))
        #expect(try evaluator.evaluate(PredicateParser.parse("@sum.price < 10"),
                                       with: .collection([.object(EvaluableDictionary(["price": .int(4)])),
                                                          .object(EvaluableDictionary(["price": .double(5.5)]))])))
    }

    @Test func objectIdentity() throws {
        final class Node: PredicateEvaluable {
            var next: Node?
            func value(forKey key: String) -> EvaluationValue { next.map { .object($0) } ?? .null }
        }
        let a = Node(), b = Node()
        a.next = b
        let node = try PredicateParser.parse("next == $B")
        #expect(try node.evaluate(with: a, variables: ["B": .object(b)]))
        #expect(try !node.evaluate(with: a, variables: ["B": .object(a)]))
    }
}
