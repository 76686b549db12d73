import CDStoreModel
import CDStorePredicate
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// One predicate of the table: the entity fetched, the predicate text and the keys (name, title or label) of
/// the objects it must select. `sourceLocation` points a failure at its row.
struct PredicateRow: CustomTestStringConvertible, Sendable {
    var entity: String
    var predicate: String
    var expected: [String]
    var arguments: [FormatArgument] = []
    var variables: [String: PredicateValue] = [:]
    var sourceLocation: SourceLocation

    init(_ entity: String, _ predicate: String, _ expected: [String], arguments: [FormatArgument] = [],
         variables: [String: PredicateValue] = [:], sourceLocation: SourceLocation = #_sourceLocation) {
        self.entity = entity
        self.predicate = predicate
        self.expected = expected
        self.arguments = arguments
        self.variables = variables
        self.sourceLocation = sourceLocation
    }

    var testDescription: String { "\(entity): \(predicate)" }

    /// Rows whose constants only SQL can type by the attribute (UUID text, base64 Binary) are not checked against
    /// the in-memory evaluator, which does not know the model (date text it reads as SQL does: the value compared
    /// is a date); nor are bitwise operators, which the evaluator refuses for a nil operand
    /// (`bitwiseAnd:with: needs integers`) where SQL gives NULL.
    var evaluatorComparable: Bool {
        !["uid", "photo", " & ", " | ", " ^ "].contains { predicate.contains($0) }
    }
}

/// The predicate language over the graph fixture: every construct, operator and modifier, with expected rows,
/// each also checked against the in-memory evaluator.
@Suite("Predicate table")
struct PredicateTableTests {
    static let rows: [PredicateRow] = [
        PredicateRow("Employee", "name == 'Ann'", ["Ann"]),
        PredicateRow("Employee", "name = \"Ann\"", ["Ann"]),
        PredicateRow("Employee", "name != 'Ann'", ["Mia", "Max", "Bob", "Cara", "Dan", "Eve", "Finn"]),
        PredicateRow("Employee", "name <> 'Ann'", ["Mia", "Max", "Bob", "Cara", "Dan", "Eve", "Finn"]),
        PredicateRow("Employee", "age > 40", ["Mia", "Cara", "Eve"]),
        PredicateRow("Employee", "age >= 45", ["Mia", "Cara", "Eve"]),
        PredicateRow("Employee", "age => 45", ["Mia", "Cara", "Eve"]),
        PredicateRow("Employee", "age < 30", ["Bob", "Finn"]),
        PredicateRow("Employee", "age <= 28", ["Bob", "Finn"]),
        PredicateRow("Employee", "age =< 28", ["Bob", "Finn"]),
        PredicateRow("Employee", "age == 34", ["Ann"]),
        PredicateRow("Employee", "age != 34", ["Mia", "Max", "Bob", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "age == nil", ["Dan"]),
        PredicateRow("Employee", "age = NULL", ["Dan"]),
        PredicateRow("Employee", "age != nil", ["Mia", "Max", "Ann", "Bob", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "nil == age", ["Dan"]),
        PredicateRow("Employee", "NOT (age == nil)", ["Mia", "Max", "Ann", "Bob", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "NOT (age > 40)", ["Max", "Ann", "Bob", "Dan", "Finn"]),
        PredicateRow("Employee", "!(age > 40)", ["Max", "Ann", "Bob", "Dan", "Finn"]),
        PredicateRow("Employee", "age BETWEEN {28, 39}", ["Max", "Ann", "Bob"]),
        PredicateRow("Employee", "age BETWEEN {39, 28}", []),
        PredicateRow("Employee", "salary BETWEEN {90000, 150000.0}", ["Ann", "Bob", "Eve"]),
        PredicateRow("Employee", "age IN {19, 28, 99}", ["Bob", "Finn"]),
        PredicateRow("Employee", "NOT (age IN {19, 28})", ["Mia", "Max", "Ann", "Cara", "Dan", "Eve"]),
        PredicateRow("Employee", "age IN {}", []),
        PredicateRow("Employee", "name IN {'Ann', 'Bob', 'Nobody'}", ["Ann", "Bob"]),
        PredicateRow("Employee", "name IN[c] {'ann', 'BOB'}", ["Ann", "Bob"]),
        PredicateRow("Employee", "name ==[c] 'ann'", ["Ann"]),
        PredicateRow("Employee", "name ==[c] 'ANN'", ["Ann"]),
        PredicateRow("Employee", "name ==[cd] 'mia'", ["Mia"]),
        PredicateRow("Employee", "name CONTAINS 'a'", ["Mia", "Max", "Cara", "Dan"]),
        PredicateRow("Employee", "name CONTAINS[c] 'a'", ["Mia", "Max", "Ann", "Cara", "Dan"]),
        PredicateRow("Employee", "name BEGINSWITH 'M'", ["Mia", "Max"]),
        PredicateRow("Employee", "name BEGINSWITH[c] 'm'", ["Mia", "Max"]),
        PredicateRow("Employee", "name ENDSWITH 'n'", ["Ann", "Dan", "Finn"]),
        PredicateRow("Employee", "name ENDSWITH[c] 'N'", ["Ann", "Dan", "Finn"]),
        PredicateRow("Employee", "name LIKE 'M*'", ["Mia", "Max"]),
        PredicateRow("Employee", "name LIKE 'M?a'", ["Mia"]),
        PredicateRow("Employee", "name LIKE[c] '*A*'", ["Mia", "Max", "Ann", "Cara", "Dan"]),
        PredicateRow("Employee", "name LIKE '?'", []),
        PredicateRow("Employee", "name LIKE '???'", ["Mia", "Max", "Ann", "Bob", "Dan", "Eve"]),
        PredicateRow("Employee", "name MATCHES 'M.*'", ["Mia", "Max"]),
        PredicateRow("Employee", "name MATCHES '[A-C].*'", ["Ann", "Bob", "Cara"]),
        PredicateRow("Employee", "name MATCHES[c] 'm(ia|ax)'", ["Mia", "Max"]),
        PredicateRow("Employee", "name MATCHES 'a.*'", []),
        PredicateRow("Employee", "nickname CONTAINS[cd] 'CA'", ["Cara"]),
        PredicateRow("Employee", "nickname BEGINSWITH[d] 'Ca'", ["Cara"]),
        PredicateRow("Employee", "nickname BEGINSWITH 'Ca'", []),
        PredicateRow("Employee", "nickname ==[c] 'ANNIE'", ["Ann"]),
        PredicateRow("Employee", "nickname != 'boss'", ["Ann", "Cara", "Eve"]),
        PredicateRow("Employee", "nickname == nil", ["Max", "Bob", "Dan", "Finn"]),
        PredicateRow("Employee", "'nni' IN nickname", ["Ann"]),
        PredicateRow("Employee", "'NNI' IN[c] nickname", ["Ann"]),
        PredicateRow("Person", "name ==[cd] 'cafe'", ["Café"]),
        PredicateRow("Person", "name ==[d] 'Cafe'", ["Café"]),
        PredicateRow("Person", "name ==[c] 'café'", ["Café"]),
        PredicateRow("Person", "name == 'Cafe'", []),
        PredicateRow("Person", "name ==[cd] 'ecole'", ["ÉCOLE"]),
        PredicateRow("Person", "name CONTAINS[cd] 'ECOL'", ["ÉCOLE"]),
        PredicateRow("Person", "name ==[c] 'zoë'", ["Zoë"]),
        PredicateRow("Person", "name ==[cd] 'ZOE'", ["Zoë"]),
        PredicateRow("Person", "nickname CONTAINS[cd] 'CAFE'", ["Café"]),
        PredicateRow("Person", "name LIKE[cd] 'e*'", ["ÉCOLE", "Eve"]),
        PredicateRow("Person", "name MATCHES[cd] 'zoe'", ["Zoë"]),
        PredicateRow("Person", "age < 30", ["Zoë", "Bob", "Finn"]),
        PredicateRow("Person", "active == YES", ["Zoë", "Mia", "Max", "Ann", "Eve"]),
        PredicateRow("Person", "active == TRUE", ["Zoë", "Mia", "Max", "Ann", "Eve"]),
        PredicateRow("Person", "active == 1", ["Zoë", "Mia", "Max", "Ann", "Eve"]),
        PredicateRow("Person", "active = NO", ["ÉCOLE", "Bob", "Finn"]),
        PredicateRow("Person", "active == FALSE", ["ÉCOLE", "Bob", "Finn"]),
        PredicateRow("Person", "active == nil", ["Café", "Cara", "Dan"]),
        PredicateRow("Person", "active != YES", ["ÉCOLE", "Bob", "Finn"]),
        PredicateRow("Person", "email ENDSWITH '@acme.com'", ["Mia", "Max", "Ann"]),
        PredicateRow("Employee", "uid == 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", ["Ann"]),
        PredicateRow("Employee", "uid == 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'", ["Ann"]),
        PredicateRow("Employee", "uid != nil", ["Ann"]),
        PredicateRow("Employee", "uid IN {'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'}", ["Ann"]),
        PredicateRow("Employee", "photo == 'AQID'", ["Ann"]),
        PredicateRow("Employee", "photo != nil", ["Ann"]),
        PredicateRow("Employee", "bonus > 999.99", ["Ann"]),
        PredicateRow("Employee", "bonus == 500", ["Bob"]),
        PredicateRow("Employee", "bonus == 1000.25", ["Ann"]),
        PredicateRow("Employee", "hired > CAST('2020-01-01', 'NSDate')", ["Cara", "Finn"]),
        PredicateRow("Employee", "hired > CAST('2020-01-01T00:00:00Z', 'NSDate')", ["Cara", "Finn"]),
        PredicateRow("Employee", "hired < CAST(0, 'NSDate')", []),
        PredicateRow("Employee", "hired > CAST(600000000, 'NSDate')", ["Cara", "Finn"]),
        PredicateRow("Employee", "hired >= '2019-07-15'", ["Bob", "Cara", "Finn"]),
        PredicateRow("Employee", "hired BETWEEN {CAST('2011-01-01', 'NSDate'), CAST('2016-01-01', 'NSDate')}", ["Max", "Ann", "Eve"]),
        PredicateRow("Employee", "hired == CAST('2015-03-01', 'NSDate')", ["Ann"]),
        PredicateRow("Employee", "hired < now()", ["Mia", "Max", "Ann", "Bob", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "hired > now()", []),
        PredicateRow("Employee", "hired > CAST(CAST(now(), 'NSNumber') - 1000000000, 'NSDate')", ["Mia", "Max", "Ann", "Bob", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "salary * 1.1 > 150000", ["Mia", "Max", "Eve"]),
        PredicateRow("Employee", "salary / 1000 == 90", ["Bob"]),
        PredicateRow("Employee", "salary + 1 == 30001", ["Finn"]),
        PredicateRow("Employee", "salary - 30000 == 0", ["Finn"]),
        PredicateRow("Employee", "-salary < -170000", ["Mia", "Max"]),
        PredicateRow("Employee", "2 ** 3 == 8 AND age == 19", ["Finn"]),
        PredicateRow("Employee", "age * 2 > 90", ["Mia", "Eve"]),
        PredicateRow("Employee", "age / 2 == 9.5", ["Finn"]),
        PredicateRow("Employee", "(age + 1) * 2 == 40", ["Finn"]),
        PredicateRow("Employee", "abs(age - 50) < 3", ["Mia", "Eve"]),
        PredicateRow("Employee", "floor(salary / 7) == 12857", ["Bob"]),
        PredicateRow("Employee", "ceiling(age / 10) == 2", ["Finn"]),
        PredicateRow("Employee", "sqrt(age) > 7", ["Eve"]),
        PredicateRow("Employee", "uppercase(name) == 'ANN'", ["Ann"]),
        PredicateRow("Employee", "lowercase(name) == 'eve'", ["Eve"]),
        PredicateRow("Employee", "(age & 1) == 1", ["Max", "Cara", "Finn"]),
        PredicateRow("Employee", "(age | 1) == 29", ["Bob"]),
        PredicateRow("Employee", "(age ^ 1) == 35", ["Ann"]),
        PredicateRow("Employee", "modulus:by:(age, 10) == 9", ["Max", "Finn"]),
        PredicateRow("Employee", "TRUEPREDICATE", ["Mia", "Max", "Ann", "Bob", "Cara", "Dan", "Eve", "Finn"]),
        PredicateRow("Employee", "FALSEPREDICATE", []),
        PredicateRow("Employee", "NOT TRUEPREDICATE", []),
        PredicateRow("Employee", "age > 40 OR name == 'Ann' AND salary > 100000", ["Mia", "Cara", "Eve", "Ann"]),
        PredicateRow("Employee", "(age > 40 OR name == 'Ann') AND salary > 100000", ["Mia", "Eve", "Ann"]),
        PredicateRow("Employee", "age > 40 AND NOT name BEGINSWITH 'M'", ["Cara", "Eve"]),
        PredicateRow("Employee", "age > 40 && salary > 100000 || name == 'Dan'", ["Mia", "Eve", "Dan"]),
        PredicateRow("Employee", "name == 'Ann' or name == 'Bob'", ["Ann", "Bob"]),
        PredicateRow("Employee", "#name == 'Ann'", ["Ann"]),
        PredicateRow("Employee", "SELF.name == 'Ann'", ["Ann"]),
        PredicateRow("Employee", "department.name == 'Sales'", ["Max", "Cara", "Dan"]),
        PredicateRow("Employee", "department.name != 'Sales'", ["Mia", "Ann", "Bob", "Eve"]),
        PredicateRow("Employee", "department == nil", ["Finn"]),
        PredicateRow("Employee", "department != nil", ["Mia", "Max", "Ann", "Bob", "Cara", "Dan", "Eve"]),
        PredicateRow("Employee", "department.company.name == 'Acme'", ["Mia", "Max", "Ann", "Bob", "Cara", "Dan"]),
        PredicateRow("Employee", "department.company.name == 'Globex'", ["Eve"]),
        PredicateRow("Employee", "department.company == nil", ["Finn"]),
        PredicateRow("Employee", "department.budget > 500000", ["Mia", "Ann", "Bob"]),
        PredicateRow("Employee", "department.budget == nil", ["Eve", "Finn"]),
        PredicateRow("Employee", "department.company.founded < CAST('2005-01-01', 'NSDate')", ["Mia", "Max", "Ann", "Bob", "Cara", "Dan"]),
        PredicateRow("Employee", "manager.name == 'Mia'", ["Max", "Ann", "Bob", "Finn"]),
        PredicateRow("Employee", "manager == nil", ["Mia", "Dan", "Eve"]),
        PredicateRow("Employee", "manager.manager.name == 'Mia'", ["Cara"]),
        PredicateRow("Employee", "manager.department.name == 'Engineering'", ["Max", "Ann", "Bob", "Finn"]),
        PredicateRow("Employee", "manager.level > 1", ["Max", "Ann", "Bob", "Finn"]),
        PredicateRow("Employee", "manager.age > age", ["Max", "Ann", "Bob", "Finn"]),
        PredicateRow("Employee", "manager.salary > salary * 2", ["Bob", "Cara", "Finn"]),
        PredicateRow("Employee", "ANY projects.title == 'Apollo'", ["Mia", "Ann", "Bob"]),
        PredicateRow("Employee", "SOME projects.title == 'Apollo'", ["Mia", "Ann", "Bob"]),
        PredicateRow("Employee", "projects.title == 'Apollo'", ["Mia", "Ann", "Bob"]),
        PredicateRow("Employee", "ANY projects.priority > 1", ["Max", "Ann", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "ALL projects.priority > 1", ["Max", "Cara", "Dan", "Eve", "Finn"]),
        PredicateRow("Employee", "NONE projects.priority > 1", ["Mia", "Bob", "Dan"]),
        PredicateRow("Employee", "NOT (ANY projects.priority > 1)", ["Mia", "Bob", "Dan"]),
        PredicateRow("Employee", "ANY projects.title IN {'Zeus', 'Atlas'}", ["Max", "Ann", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "ANY projects.title BEGINSWITH[c] 'a'", ["Mia", "Max", "Ann", "Bob", "Eve", "Finn"]),
        PredicateRow("Employee", "ALL projects.title BEGINSWITH 'A'", ["Mia", "Max", "Bob", "Dan", "Eve", "Finn"]),
        PredicateRow("Employee", "projects.title CONTAINS 'Zeus'", ["Ann", "Cara"]),
        PredicateRow("Employee", "'Zeus' IN projects.title", ["Ann", "Cara"]),
        PredicateRow("Employee", "ANY projects.tags.label == 'urgent'", ["Mia", "Ann", "Bob"]),
        PredicateRow("Employee", "ANY projects.members.name == 'Eve'", ["Max", "Eve", "Finn"]),
        PredicateRow("Employee", "projects.@count == 0", ["Dan"]),
        PredicateRow("Employee", "projects.@count > 1", ["Ann"]),
        PredicateRow("Employee", "projects.@count >= 1", ["Mia", "Max", "Ann", "Bob", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "projects[SIZE] == 2", ["Ann"]),
        PredicateRow("Employee", "projects.@sum.priority == 4", ["Ann"]),
        PredicateRow("Employee", "projects.@sum.priority == 0", ["Dan"]),
        PredicateRow("Employee", "projects.@avg.priority == 2", ["Ann", "Max", "Eve", "Finn"]),
        PredicateRow("Employee", "projects.@max.priority == 3", ["Ann", "Cara"]),
        PredicateRow("Employee", "projects.@min.priority == 1", ["Mia", "Ann", "Bob"]),
        PredicateRow("Employee", "@sum.projects.priority == 4", ["Ann"]),
        PredicateRow("Employee", "SUBQUERY(projects, $p, $p.priority >= 2).@count > 0", ["Max", "Ann", "Cara", "Eve", "Finn"]),
        PredicateRow("Employee", "SUBQUERY(projects, $p, $p.priority >= 2 AND $p.title BEGINSWITH 'Z').@count == 1", ["Ann", "Cara"]),
        PredicateRow("Employee", "SUBQUERY(projects, $p, ANY $p.members.name == 'Eve').@count > 0", ["Max", "Eve", "Finn"]),
        PredicateRow("Employee", "SUBQUERY(projects, $p, $p.members.@count > 2).@count > 0", ["Mia", "Max", "Ann", "Bob", "Eve", "Finn"]),
        PredicateRow("Employee", "SUBQUERY(projects, $p, $p.priority > age / 20).@count > 0", ["Max", "Ann", "Cara", "Finn"]),
        PredicateRow("Employee", "department.employees.@count == 3", ["Mia", "Max", "Ann", "Bob", "Cara", "Dan"]),
        PredicateRow("Employee", "ANY department.employees.name == 'Eve'", ["Eve"]),
        PredicateRow("Employee", "sum:(projects.priority) == 4", ["Ann"]),
        PredicateRow("Employee", "count:(projects) == 2", ["Ann"]),
        PredicateRow("Employee", "max:(projects.priority) == 2", ["Max", "Eve", "Finn"]),
        PredicateRow("Employee", "average:(projects.priority) == 2", ["Max", "Ann", "Eve", "Finn"]),
        PredicateRow("Employee", "sum:({1, 2, 3}) == age - 13", ["Finn"]),
        PredicateRow("Manager", "reports.@count == 4", ["Mia"]),
        PredicateRow("Manager", "ANY reports.name == 'Cara'", ["Max"]),
        PredicateRow("Manager", "ALL reports.salary >= 60000", ["Max"]),
        PredicateRow("Manager", "ANY reports.department.name == 'Engineering'", ["Mia"]),
        PredicateRow("Manager", "level == 2 AND department.name == 'Engineering'", ["Mia"]),
        PredicateRow("Manager", "projects.title == 'Atlas'", ["Max"]),
        PredicateRow("Manager", "manager.name == 'Mia'", ["Max"]),
        PredicateRow("Manager", "ANY reports.projects.title == 'Zeus'", ["Mia", "Max"]),
        PredicateRow("Department", "employees.@count > 0", ["Engineering", "Sales", "Research"]),
        PredicateRow("Department", "employees.@count == 0", ["Empty", "Orphan"]),
        PredicateRow("Department", "ANY employees.name == 'Mia'", ["Engineering"]),
        PredicateRow("Department", "ALL employees.salary > 100000", ["Research", "Empty", "Orphan"]),
        PredicateRow("Department", "ALL employees.age > 30", ["Research", "Empty", "Orphan"]),
        PredicateRow("Department", "NONE employees.age < 30", ["Sales", "Research", "Empty", "Orphan"]),
        PredicateRow("Department", "employees.@sum.salary > 400000", ["Engineering"]),
        PredicateRow("Department", "employees.@avg.salary > 140000", ["Research"]),
        PredicateRow("Department", "employees.@max.age == 52", ["Research"]),
        PredicateRow("Department", "employees.@min.hired < CAST('2006-01-01', 'NSDate')", ["Engineering"]),
        PredicateRow("Department", "company.name == 'Acme'", ["Engineering", "Sales"]),
        PredicateRow("Department", "company == nil", ["Orphan"]),
        PredicateRow("Department", "budget == nil", ["Research"]),
        PredicateRow("Department", "budget > 100", ["Engineering", "Sales"]),
        PredicateRow("Department", "budget == 1000000.5", ["Engineering"]),
        PredicateRow("Department", "ANY employees.projects.title == 'Zeus'", ["Engineering", "Sales"]),
        PredicateRow("Department", "SUBQUERY(employees, $e, $e.manager.name == 'Mia').@count == 2", ["Engineering"]),
        PredicateRow("Department", "SUBQUERY(employees, $e, $e.salary > 100000 AND $e.age > 40).@count >= 1", ["Engineering", "Research"]),
        PredicateRow("Department", "ANY employees.manager.name == 'Max'", ["Sales"]),
        PredicateRow("Department", "employees.manager.name == nil", ["Engineering", "Sales", "Research"]),
        PredicateRow("Department", "ALL employees.manager != nil", ["Empty", "Orphan"]),
        PredicateRow("Company", "departments.@count == 2", ["Acme", "Globex"]),
        PredicateRow("Company", "ANY departments.employees.name == 'Eve'", ["Globex"]),
        PredicateRow("Company", "departments.employees.@count == 6", ["Acme"]),
        PredicateRow("Company", "departments.employees.@sum.salary > 600000", ["Acme"]),
        PredicateRow("Company", "ANY departments.budget == nil", ["Globex"]),
        PredicateRow("Company", "founded == nil", ["Initech"]),
        PredicateRow("Company", "founded > CAST('2005-01-01', 'NSDate')", ["Globex"]),
        PredicateRow("Company", "NONE departments.employees.age > 50", ["Acme", "Initech"]),
        PredicateRow("Company", "SUBQUERY(departments, $d, SUBQUERY($d.employees, $e, $e.age > 40).@count > 0).@count == 2", ["Acme"]),
        PredicateRow("Company", "SUBQUERY(departments, $d, $d.employees.@count == 0).@count > 0", ["Globex"]),
        PredicateRow("Tag", "label IN {'urgent', 'external'}", ["urgent", "external"]),
        PredicateRow("Project", "tags.@count == 2", ["Apollo"]),
        PredicateRow("Project", "ANY tags.label == 'external'", ["Zeus"]),
        PredicateRow("Project", "tags.@count == 0", ["Hermes", "Atlas"]),
        PredicateRow("Project", "members.@count == 3", ["Apollo", "Atlas"]),
        PredicateRow("Project", "ANY members.department.company.name == 'Globex'", ["Atlas"]),
        PredicateRow("Project", "ALL members.active == YES", ["Hermes"]),
        PredicateRow("Project", "priority == nil", ["Hermes"]),
        PredicateRow("Project", "priority IN {1, 3}", ["Apollo", "Zeus"]),
        PredicateRow("Project", "ANY members.manager.name == 'Max'", ["Zeus"]),
        PredicateRow("Project", "ANY members == nil", []),
        PredicateRow("Project", "members.@avg.age > 39", ["Zeus"]),
        // Format arguments and variables.
        PredicateRow("Employee", "name == %@", ["Ann"], arguments: [.string("Ann")]),
        PredicateRow("Employee", "%K == %@", ["Bob"], arguments: [.keyPath("name"), .string("Bob")]),
        PredicateRow("Employee", "%K == %@", ["Max", "Cara", "Dan"], arguments: [.keyPath("department.name"), .string("Sales")]),
        PredicateRow("Employee", "age > %d", ["Mia", "Cara", "Eve"], arguments: [.int(40)]),
        PredicateRow("Employee", "salary >= %f", ["Mia", "Max"], arguments: [.double(180000)]),
        PredicateRow("Employee", "age IN %@", ["Bob", "Finn"], arguments: [.array([.int(19), .int(28)])]),
        PredicateRow("Employee", "NOT (name IN %@)", ["Mia", "Max", "Cara", "Dan", "Eve", "Finn"], arguments: [.array([.string("Ann"), .string("Bob")])]),
        PredicateRow("Employee", "age BETWEEN %@", ["Max", "Ann"], arguments: [.array([.int(30), .int(40)])]),
        PredicateRow("Employee", "hired > %@", ["Cara", "Finn"], arguments: [.date(PredicateDate.parseISO8601("2020-01-01")!)]),
        PredicateRow("Employee", "name == %@ OR name == nil", ["Eve"], arguments: [.string("Eve")]),
        PredicateRow("Employee", "name BEGINSWITH[cd] $FIRST", ["Mia", "Max"], variables: ["FIRST": .string("m")]),
        PredicateRow("Employee", "age BETWEEN { $LOWER, $UPPER }", ["Max", "Ann"], variables: ["LOWER": .int(30), "UPPER": .int(40)]),
        PredicateRow("Employee", "manager.name == $M", ["Cara"], variables: ["M": .string("Max")]),
        PredicateRow("Employee", "nickname == $N", ["Max", "Bob", "Dan", "Finn"], variables: ["N": .null]),
        PredicateRow("Employee", "ANY projects.priority > $P", ["Ann", "Cara"], variables: ["P": .int(2)]),
        PredicateRow("Employee", "'%@' == name", [], arguments: []),
    ]

    @Test("Predicate table", arguments: rows)
    func row(_ row: PredicateRow) throws {
        let fixture = GraphFixture.shared
        var predicate = try PredicateParserShim.parse(row.predicate, row.arguments)
        if !row.variables.isEmpty { predicate = try predicate.substituting(variables: row.variables) }
        let fetched = try fixture.fetchKeys(row.entity, predicate)
        #expect(fetched.sorted() == row.expected.sorted(), "\(row.predicate)", sourceLocation: row.sourceLocation)
        #expect(try fixture.store.count(ObjectFetchRequest(entity: row.entity, predicate: predicate)) == row.expected.count,
                sourceLocation: row.sourceLocation)
        if row.evaluatorComparable {
            let evaluated = try fixture.evaluatedKeys(row.entity, predicate)
            #expect(evaluated.sorted() == row.expected.sorted(), "evaluator: \(row.predicate)", sourceLocation: row.sourceLocation)
        }
    }

    @Test func tableIsLargeEnough() {
        #expect(Self.rows.count >= 150)
    }

    /// Predicates refused before any SQL runs, with the words the error must contain.
    static let refusals: [(String, String, String, SourceLocation)] = [
        ("Employee", "nme == 'Ann'", "did you mean 'name'", #_sourceLocation),
        ("Employee", "department.nmae == 'x'", "did you mean 'name'", #_sourceLocation),
        ("Employee", "projects.titel == 'x'", "did you mean 'title'", #_sourceLocation),
        ("Employee", "name.first == 'x'", "is an attribute", #_sourceLocation),
        ("Employee", "reports.@count > 1", "no attribute or relationship 'reports'", #_sourceLocation),
        ("Employee", "age == 'old'", "type mismatch", #_sourceLocation),
        ("Employee", "name > 5", "type mismatch", #_sourceLocation),
        ("Employee", "age BEGINSWITH '3'", "type mismatch", #_sourceLocation),
        ("Employee", "name CONTAINS 3", "type mismatch", #_sourceLocation),
        ("Employee", "uid == 'not-a-uuid'", "type mismatch", #_sourceLocation),
        ("Employee", "photo == 'not base64!'", "type mismatch", #_sourceLocation),
        ("Employee", "hired > 'yesterday'", "type mismatch", #_sourceLocation),
        ("Employee", "active == 'maybe'", "type mismatch", #_sourceLocation),
        ("Employee", "name == age", "type mismatch", #_sourceLocation),
        ("Employee", "projects.@sum.title > 1", "@sum needs numbers", #_sourceLocation),
        ("Employee", "projects.@avg > 1", "needs an attribute", #_sourceLocation),
        ("Employee", "name.@count > 1", "needs a key path through a relationship", #_sourceLocation),
        ("Employee", "projects.@distinctUnionOfObjects.title == 'x'", "@distinctUnionOfObjects", #_sourceLocation),
        ("Employee", "ANY name == 'Ann'", "needs a key path through a to-many", #_sourceLocation),
        ("Employee", "ALL department.name == 'x'", "needs a key path through a to-many", #_sourceLocation),
        ("Employee", "name MATCHES '(unclosed'", "invalid regular expression", #_sourceLocation),
        ("Employee", "FUNCTION(name, 'length') == 3", "FUNCTION", #_sourceLocation),
        ("Employee", "FETCH(name, name, NO) == 3", "FETCH", #_sourceLocation),
        ("Employee", "ANYKEY == 'x'", "ANYKEY", #_sourceLocation),
        ("Employee", "name UTI-CONFORMS-TO 'public.text'", "Spotlight", #_sourceLocation),
        ("Employee", "name UTI-EQUALS 'public.text'", "Spotlight", #_sourceLocation),
        ("Employee", "{1} UNION {2} == {1}", "set expressions", #_sourceLocation),
        ("Employee", "name == $UNBOUND", "$UNBOUND", #_sourceLocation),
        ("Employee", "random() > 0.5", "random", #_sourceLocation),
        ("Employee", "department == 'x'", "relationship", #_sourceLocation),
        ("Employee", "projects[FIRST].title == 'x'", "index expressions", #_sourceLocation),
        ("Employee", "CAST(name, 'NSURL') == 'x'", "CAST", #_sourceLocation),
        ("Employee", "projects.title == department.employees.name", "two to-many", #_sourceLocation),
        ("Employee", "name == projects.title", "on the right", #_sourceLocation),
        ("Employee", "SUBQUERY(name, $x, $x == 'a').@count > 0", "SUBQUERY needs a to-many", #_sourceLocation),
        ("Employee", "scratch == 1", "no attribute or relationship 'scratch'", #_sourceLocation),
    ]

    @Test func refusedBeforeSQLRuns() throws {
        let fixture = GraphFixture.shared
        for (entity, text, words, location) in Self.refusals {
            let predicate: PredicateNode
            do { predicate = try PredicateParserShim.parse(text) } catch {
                Issue.record("'\(text)' should parse and be refused by the compiler: \(error)", sourceLocation: location)
                continue
            }
            do {
                _ = try fixture.store.fetch(ObjectFetchRequest(entity: entity, predicate: predicate))
                Issue.record("'\(text)' was not refused", sourceLocation: location)
            } catch let error as StoreError {
                #expect(error.description.contains(words), "\(error.description)", sourceLocation: location)
            }
        }
    }
}
