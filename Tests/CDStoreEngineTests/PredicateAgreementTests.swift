import CDStorePredicate
import Foundation
import Testing
@testable import CDStoreEngine

/// Cases where the in-memory evaluator and SQL once disagreed, each run through BOTH and their answers compared:
/// the same objects, or both refusing with the same words. The meanings chosen are in `Evaluator+Types.swift`
/// (strings against numbers, booleans and dates) and the evaluator's documentation (set expressions).
@Suite("Predicates mean the same in memory and in SQL")
struct PredicateAgreementTests {
    enum Outcome: Equatable, Sendable, CustomStringConvertible {
        /// The keys of the objects selected.
        case rows([String])
        /// Refused, the message containing these words.
        case refused(String)
        var description: String {
            switch self {
            case .rows(let keys): "rows \(keys.sorted())"
            case .refused(let words): "refused (\(words))"
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var entity = "Employee"
        var predicate: String
        /// Nil: the same rows as `sameAs`.
        var expected: Outcome?
        var sameAs: String?
        var testDescription: String { predicate }
    }

    static func refused(_ predicate: String, _ words: String) -> Case { Case(predicate: predicate, expected: .refused(words)) }
    static func same(_ predicate: String, as reference: String) -> Case { Case(predicate: predicate, sameAs: reference) }

    static let cases: [Case] = [
        // Two constants: a string is no number (SQLite would order them by storage class, Foundation refuses).
        refused(#""2" <= 2"#, "type mismatch"),
        refused(#"2 >= "2""#, "type mismatch"),
        refused(#""2" == 2"#, "type mismatch"),
        refused(#""2" != 2"#, "type mismatch"),
        refused(#""1" == YES"#, "type mismatch"),
        refused(#"'2' IN {2, 3}"#, "type mismatch"),
        refused(#"2 BETWEEN {'1', 3}"#, "type mismatch"),
        refused(#"'x' == 1 OR age == 34"#, "type mismatch"),
        // A string constant takes the attribute's type; one that does not spell it is a mismatch.
        same(#"age == "34""#, as: "age == 34"),
        same(#""34" == age"#, as: "age == 34"),
        same(#"age <= '28'"#, as: "age <= 28"),
        same(#"age IN {'19', 28}"#, as: "age IN {19, 28}"),
        same(#"age BETWEEN {'28', '39'}"#, as: "age BETWEEN {28, 39}"),
        same(#"salary > '100000.5'"#, as: "salary > 100000.5"),
        same(#"active == 'YES'"#, as: "active == YES"),
        same(#"active == 'false'"#, as: "active == NO"),
        same(#"hired > '2020-01-01'"#, as: "hired > CAST('2020-01-01', 'NSDate')"),
        same(#"ANY projects.priority > '2'"#, as: "ANY projects.priority > 2"),
        refused(#"age == 'old'"#, "type mismatch"),
        refused(#"age > 'x'"#, "type mismatch"),
        refused(#"active == 'maybe'"#, "type mismatch"),
        refused(#"hired > 'yesterday'"#, "type mismatch"),
        // A string attribute against a number, and string operators on non-strings.
        refused("name == 5", "type mismatch"),
        refused("name < 5", "type mismatch"),
        refused("nickname != 5", "type mismatch"),
        refused("name IN {'Ann', 5}", "type mismatch"),
        refused("name CONTAINS 3", "type mismatch"),
        refused("age BEGINSWITH '3'", "type mismatch"),
        refused("salary ENDSWITH '0'", "type mismatch"),
        refused("age LIKE '3*'", "type mismatch"),
        refused("active MATCHES '1'", "type mismatch"),
        // Set expressions: refused by both (Core Data's SQLite store cannot run them).
        refused("{1} UNION {2} == {1, 2}", "UNION"),
        refused("age IN {19} UNION {34}", "UNION"),
        refused("ANY projects.title IN {'Apollo', 'Zeus'} INTERSECT {'Zeus'}", "INTERSECT"),
        refused("{1, 2} MINUS {2} == {1}", "MINUS"),
        // What agreed already stays so.
        same("name == 'Ann'", as: "name == \"Ann\""),
        Case(predicate: "nickname == nil", expected: .rows(["Max", "Bob", "Dan", "Finn"])),
    ]

    /// An evaluator's answer: the keys selected, or the error's text.
    enum Answer: CustomStringConvertible {
        case success([String])
        case failure(String)
        var description: String {
            switch self {
            case .success(let keys): "\(keys)"
            case .failure(let message): "error: \(message)"
            }
        }
    }

    static func parse(_ text: String) throws -> PredicateNode { try PredicateParserShim.parse(text) }

    /// What SQL answers.
    static func sql(_ entity: String, _ predicate: PredicateNode) -> Answer {
        do { return .success(try GraphFixture.shared.fetchKeys(entity, predicate).sorted()) } catch {
            return .failure("\(error)")
        }
    }

    /// What the in-memory evaluator answers.
    static func memory(_ entity: String, _ predicate: PredicateNode) -> Answer {
        do { return .success(try GraphFixture.shared.evaluatedKeys(entity, predicate).sorted()) } catch {
            return .failure("\(error)")
        }
    }

    static func matches(_ answer: Answer, _ outcome: Outcome) -> Bool {
        switch (answer, outcome) {
        case (.success(let keys), .rows(let expected)): keys == expected.sorted()
        case (.failure(let message), .refused(let words)): message.contains(words)
        default: false
        }
    }

    @Test(arguments: cases)
    func bothEvaluatorsAgree(_ row: Case) throws {
        let predicate = try Self.parse(row.predicate)
        var expected = row.expected ?? .rows([])
        if let reference = row.sameAs {
            guard case .success(let keys) = Self.sql(row.entity, try Self.parse(reference)) else {
                Issue.record("the reference \(reference) must run")
                return
            }
            #expect(!keys.isEmpty, "the reference \(reference) should select something")
            expected = .rows(keys)
        }
        let sql = Self.sql(row.entity, predicate), memory = Self.memory(row.entity, predicate)
        #expect(Self.matches(sql, expected), "SQL: \(sql), expected \(expected)")
        #expect(Self.matches(memory, expected), "in memory: \(memory), expected \(expected)")
    }

    /// The refusals of the predicate table that are about meaning (types, set expressions), not about the
    /// model's names, are refusals in memory too.
    @Test func tableRefusalsAboutMeaningAreRefusedInMemory() throws {
        for (entity, text, words, location) in PredicateTableTests.refusals
        where words == "type mismatch" || words == "set expressions" {
            guard PredicateRow(entity, text, []).evaluatorComparable else { continue }
            let result = Self.memory(entity, try Self.parse(text))
            guard case .failure(let message) = result else {
                Issue.record("'\(text)' is refused by SQL but evaluates in memory: \(result)", sourceLocation: location)
                continue
            }
            #expect(message.contains(words == "set expressions" ? "is not supported" : words), "\(message)",
                    sourceLocation: location)
        }
    }
}
