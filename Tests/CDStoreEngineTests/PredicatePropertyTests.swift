import CDStoreModel
import CDStorePredicate
import Foundation
import CDStoreTestSupport
import Testing
@testable import CDStoreEngine

/// Random predicates over the graph fixture's attributes and key paths (to-one chains, quantified to-many
/// paths, collection operators, SUBQUERY, arithmetic, nil tests, NOT/AND/OR): `store.fetch` must select exactly
/// the objects the in-memory `PredicateEvaluator` accepts.
///
/// Not generated, because SQL and the evaluator legitimately differ there: bitwise operators with a nil
/// operand (the evaluator throws, SQL gives NULL), UUID/Binary/date-text constants (typed by the model in SQL
/// only), to-many steps after a to-one that may be nil inside a collection (`a.b.c` where `b` is nil yields one
/// nil in the evaluator and no row in SQL), and comparisons of a string attribute with a number.
struct PredicateGenerator {
    var rng: SeededGenerator

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

    static let strings = ["'Ann'", "'ann'", "'Mia'", "'M'", "'a'", "'n'", "'Ça va'", "'ca'", "'Sales'", "'Engineering'",
                          "'Acme'", "'e'", "''", "'Zeus'", "'Apollo'", "'Eve'", "'café'", "'ÉCOLE'", "'boss'"]
    static let likePatterns = ["'M*'", "'*a*'", "'?a?'", "'*n'", "'A*'", "'*'", "'E?e'"]
    static let regexes = ["'M.*'", "'.*a.*'", "'[A-E].*'", "'(Ann|Bob)'", "'.{3}'", "'[a-z]+'"]
    static let options = ["", "[c]", "[d]", "[cd]"]

    mutating func stringLeaf(_ path: String) -> String {
        switch rng.next() % 10 {
        case 0: return "\(path) \(pick(["==", "!="])) nil"
        case 1: return "\(path) LIKE\(pick(Self.options)) \(pick(Self.likePatterns))"
        case 2: return "\(path) MATCHES\(pick(Self.options)) \(pick(Self.regexes))"
        case 3: return "\(path) IN\(pick(Self.options)) {\(pick(Self.strings)), \(pick(Self.strings))}"
        default:
            let op = pick(["==", "!=", "<", ">", "<=", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS"])
            return "\(path) \(op)\(pick(Self.options)) \(pick(Self.strings))"
        }
    }

    mutating func numberLeaf(_ path: String, _ values: [String]) -> String {
        switch rng.next() % 9 {
        case 0: return "\(path) \(pick(["==", "!="])) nil"
        case 1: return "\(path) BETWEEN {\(pick(values)), \(pick(values))}"
        case 2: return "\(path) IN {\(pick(values)), \(pick(values)), \(pick(values))}"
        case 3 where !((path.contains("projects.") || path.contains("employees.")) && !path.contains("@")):
            return "\(path) \(pick(["+ 1", "* 2", "- 3", "/ 2"])) \(pick(["<", ">", "=="])) \(pick(values))"
        default: return "\(path) \(pick(["==", "!=", "<", "<=", ">", ">="])) \(pick(values))"
        }
    }

    mutating func dateLeaf(_ path: String) -> String {
        let dates = ["'2000-01-01'", "'2010-06-15T12:00:00Z'", "'2015-03-01'", "'2019-07-15'", "'2022-01-01'"]
        if chance(15) { return "\(path) \(pick(["==", "!="])) nil" }
        return "\(path) \(pick(["==", "!=", "<", ">", "<=", ">="])) CAST(\(pick(dates)), 'NSDate')"
    }

    mutating func leaf(_ entity: String) -> String {
        let ages = ["19", "28", "30", "34", "39", "40", "45", "52", "0"]
        let salaries = ["30000", "60000", "90000", "120000", "150000", "180000.0", "200000"]
        let small = ["0", "1", "2", "3", "4", "1.5", "2.5"]
        let quantifier = pick(["ANY ", "SOME ", "ALL ", "NONE ", ""])
        if entity == "Department" {
            switch rng.next() % 9 {
            case 0: return stringLeaf(pick(["name", "company.name"]))
            case 1: return numberLeaf("budget", ["0", "10", "250000", "1000000.5", "5"])
            case 2: return quantifier + stringLeaf("employees.name")
            case 3: return quantifier + numberLeaf("employees.age", ages)
            case 4: return numberLeaf(pick(["employees.@count", "employees.@max.age", "employees.@min.age"]), ages + small)
            case 5: return numberLeaf(pick(["employees.@sum.salary", "employees.@avg.salary"]), salaries + ["0", "410000"])
            case 6: return "SUBQUERY(employees, $e, \(PredicateGenerator.subLeaf(&self))).@count \(pick(["==", ">", "<"])) \(pick(small))"
            case 7: return "company \(pick(["==", "!="])) nil"
            default: return quantifier + stringLeaf("employees.manager.name")
            }
        }
        switch rng.next() % 20 {
        case 0, 1: return stringLeaf(pick(["name", "nickname"]))
        case 2: return stringLeaf(pick(["department.name", "manager.name", "department.company.name", "manager.department.name",
                                         "manager.manager.name"]))
        case 3, 4: return numberLeaf(pick(["age", "manager.age"]), ages)
        case 5: return numberLeaf(pick(["salary", "manager.salary"]), salaries)
        case 6: return numberLeaf("department.budget", ["0", "10", "250000", "1000000.5"])
        case 7: return dateLeaf(pick(["hired", "department.company.founded", "manager.hired"]))
        case 8: return "active \(pick(["==", "!="])) \(pick(["YES", "NO", "nil", "1", "0"]))"
        case 9: return "\(pick(["department", "manager", "department.company"])) \(pick(["==", "!="])) nil"
        case 10, 11: return quantifier + stringLeaf(pick(["projects.title", "projects.members.name", "projects.tags.label",
                                                           "department.employees.name"]))
        case 12: return quantifier + numberLeaf(pick(["projects.priority", "department.employees.age"]), small + ages)
        case 13: return numberLeaf(pick(["projects.@count", "projects.@sum.priority", "projects.@max.priority",
                                         "projects.@min.priority", "department.employees.@count", "projects.members.@count"]), small)
        case 14: return numberLeaf(pick(["projects.@avg.priority", "department.employees.@avg.age"]), small + ages)
        case 15: return "SUBQUERY(projects, $p, \(projectLeaf())).@count \(pick(["==", ">", ">=", "<"])) \(pick(["0", "1", "2"]))"
        case 16: return "\(pick(Self.strings)) IN \(pick(["projects.title", "department.employees.name"]))"
        case 17: return "projects.title CONTAINS\(pick(Self.options)) \(pick(Self.strings))"
        case 18: return "\(pick(["age", "salary"])) \(pick([">", "<"])) \(pick(["manager.age", "manager.salary"]))"
        default: return "\(pick(["TRUEPREDICATE", "FALSEPREDICATE"]))"
        }
    }

    mutating func projectLeaf() -> String {
        switch rng.next() % 4 {
        case 0: return numberLeaf("$p.priority", ["0", "1", "2", "3"])
        case 1: return stringLeaf("$p.title")
        case 2: return "ANY $p.members.name \(pick(["==", "BEGINSWITH"])) \(pick(Self.strings))"
        default: return "$p.priority > age / 20"
        }
    }

    static func subLeaf(_ g: inout PredicateGenerator) -> String {
        switch g.rng.next() % 3 {
        case 0: return g.numberLeaf("$e.age", ["19", "30", "40", "50"])
        case 1: return g.stringLeaf("$e.manager.name")
        default: return "$e.salary > \(g.pick(["50000", "100000"])) AND $e.name != 'Bob'"
        }
    }

    mutating func predicate(_ entity: String, depth: Int = 0) -> String {
        if depth >= 3 || chance(40) { return leaf(entity) }
        switch rng.next() % 4 {
        case 0: return "NOT (\(predicate(entity, depth: depth + 1)))"
        case 1: return "(\(predicate(entity, depth: depth + 1))) OR (\(predicate(entity, depth: depth + 1)))"
        default: return "(\(predicate(entity, depth: depth + 1))) AND (\(predicate(entity, depth: depth + 1)))"
        }
    }
}

@Suite("Predicates: SQL agrees with the in-memory evaluator")
struct PredicatePropertyTests {
    @Test(arguments: [("Employee", UInt64(4)), ("Department", UInt64(2024)), ("Person", UInt64(77))])
    func sqlMatchesEvaluator(entity: String, seed: UInt64) throws {
        let fixture = GraphFixture.shared
        var generator = PredicateGenerator(rng: SeededGenerator(state: seed))
        let count = entity == "Person" ? 300 : 1500
        var failures = 0
        for i in 0..<count {
            // Person has only the plain attributes; its sub-entities' keys would be unknown to SQL.
            let text = entity == "Person"
                ? generator.stringLeaf(generator.pick(["name", "nickname", "email"])) + " OR " +
                  generator.numberLeaf("age", ["19", "29", "40", "52"])
                : generator.predicate(entity)
            let predicate = try PredicateParserShim.parse(text)
            let sql = try fixture.fetchKeys(entity, predicate).sorted()
            let memory = try fixture.evaluatedKeys(entity, predicate).sorted()
            if sql != memory {
                failures += 1
                Issue.record("seed \(seed) #\(i): \(text)\n  SQL:       \(sql)\n  evaluator: \(memory)")
                if failures > 10 { return }
            }
        }
    }
}
