import CDStoreModel
import CDStorePredicate
import Foundation
import Testing
@testable import CDStoreEngine

/// Dictionary fetches on the payroll fixture, checked against numbers computed here from the inserted data.
@Suite struct ProjectionTests {
    typealias P = PayrollFixture.Person
    let fixture: PayrollFixture
    var store: Store { fixture.store }
    let people = PayrollFixture.people

    init() throws { fixture = try PayrollFixture() }

    func project(_ properties: [String], entity: String = "Employee", where predicate: String? = nil,
                 groupBy: [String] = [], having: String? = nil, distinct: Bool = false, sort: [String] = [],
                 limit: Int? = nil) throws -> [[(String, ObjectValue)]] {
        try store.project(try ProjectionRequest(
            entity: entity, properties: properties, predicate: try predicate.map { try PredicateParserShim.parse($0) },
            groupBy: groupBy, having: try having.map { try PredicateParserShim.parse($0) }, distinct: distinct,
            sort: sort.map(SortDescriptor.init(parsing:)), limit: limit))
    }

    func single(_ properties: [String], where predicate: String? = nil) throws -> [String: ObjectValue] {
        let rows = try project(properties, where: predicate)
        try #require(rows.count == 1)
        return PayrollFixture.dictionaries(rows)[0]
    }

    func double(_ value: ObjectValue?) -> Double? {
        switch value {
        case .double(let d)?, .decimal(let d)?, .date(let d)?: d
        case .integer(let i)?: Double(i)
        default: nil
        }
    }

    func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    // MARK: - Each function

    @Test func sumOfIntegersStaysAnInteger() throws {
        let row = try single(["sum:age", "sum:(employeeNumber) AS numbers"])
        #expect(row["sum:age"] == .integer(people.compactMap(\.age).reduce(0, +)))
        #expect(row["numbers"] == .integer(people.map(\.number).reduce(0, +)))
    }

    @Test func sumOfDecimalsIsExact() throws {
        let row = try single(["sum:salary"])
        let expected = Stats.decimalSum(people.compactMap(\.salary))
        #expect(row["sum:salary"] == .decimal(expected))
        // 0.1 + 0.2 is 0.3 as decimals, not 0.30000000000000004.
        let budgets = try store.project(try ProjectionRequest(
            entity: "Department", properties: ["sum:budget"], predicate: try PredicateParserShim.parse("company.name == 'Acme'")))
        #expect(budgets[0][0].1 == .decimal(0.3))
        #expect(0.1 + 0.2 != 0.3)
    }

    @Test func sumOfDoubles() throws {
        let row = try single(["sum:rating"])
        guard case .double(let value)? = row["sum:rating"] else { Issue.record("not a double: \(String(describing: row["sum:rating"]))"); return }
        #expect(close(value, people.compactMap(\.rating).reduce(0, +)))
    }

    @Test func averageIsADouble() throws {
        let row = try single(["average:age", "average:(salary)", "avg:rating"])
        let ages = people.compactMap(\.age).map(Double.init)
        guard case .double(let age)? = row["average:age"] else { Issue.record("average:age is not a double"); return }
        #expect(close(age, ages.reduce(0, +) / Double(ages.count)))
        let salaries = people.compactMap(\.salary)
        #expect(close(double(row["average:salary"]), salaries.reduce(0, +) / Double(salaries.count)))
        let ratings = people.compactMap(\.rating)
        #expect(close(double(row["average:rating"]), ratings.reduce(0, +) / Double(ratings.count)))
    }

    @Test func countCountsValuesNotNil() throws {
        let row = try single(["count:employeeNumber", "count:email", "count:(age)", "count:SELF AS objects"])
        #expect(row["count:employeeNumber"] == .integer(Int64(people.count)))
        #expect(row["count:email"] == .integer(Int64(people.compactMap(\.email).count)))
        #expect(row["count:age"] == .integer(Int64(people.compactMap(\.age).count)))
        #expect(row["objects"] == .integer(Int64(people.count)))
    }

    @Test func minAndMaxKeepTheAttributeType() throws {
        let row = try single(["min:hiredAt", "max:hiredAt", "min:age", "max:age", "min:lastName", "max:(salary)", "min:isActive"])
        #expect(row["min:hiredAt"] == .date(people.map(\.hiredSeconds).min()!))
        #expect(row["max:hiredAt"] == .date(people.map(\.hiredSeconds).max()!))
        #expect(row["min:age"] == .integer(people.compactMap(\.age).min()!))
        #expect(row["max:age"] == .integer(people.compactMap(\.age).max()!))
        #expect(row["min:lastName"] == .string(people.map(\.last).min()!))
        #expect(row["max:salary"] == .decimal(people.compactMap(\.salary).max()!))
        #expect(row["min:isActive"] == .bool(false))
    }

    @Test func medianIsExact() throws {
        let row = try single(["median:age", "median:salary", "median:rating"])
        let ages = people.compactMap(\.age).map(Double.init)   // 7 values: the middle one
        #expect(ages.count % 2 == 1)
        #expect(row["median:age"] == .double(Stats.median(ages)!))
        let salaries = people.compactMap(\.salary)              // 7 values
        #expect(row["median:salary"] == .double(Stats.median(salaries)!))
        let ratings = people.compactMap(\.rating)               // 8 values: mean of the two middle ones
        #expect(ratings.count % 2 == 0)
        #expect(row["median:rating"] == .double(Stats.median(ratings)!))
        // An even count inside one group.
        let engineering = try project(["median:age"], where: "department.name == 'Engineering' AND firstName != 'Mia'")
        #expect(engineering[0][0].1 == .double((34.0 + 28) / 2))
    }

    @Test func stddevIsThePopulationStandardDeviation() throws {
        let row = try single(["stddev:age", "stddev:rating", "stddev:salary"])
        #expect(close(double(row["stddev:age"]), Stats.populationStandardDeviation(people.compactMap(\.age).map(Double.init))))
        #expect(close(double(row["stddev:rating"]), Stats.populationStandardDeviation(people.compactMap(\.rating))))
        #expect(close(double(row["stddev:salary"]), Stats.populationStandardDeviation(people.compactMap(\.salary))))
        let one = try single(["stddev:age"], where: "employeeNumber == 1")
        #expect(one["stddev:age"] == .double(0))
        let none = try single(["stddev:age", "median:age", "sum:age", "sum:salary", "count:age"], where: "employeeNumber == 999")
        #expect(none["stddev:age"] == .null)
        #expect(none["median:age"] == .null)
        #expect(none["sum:age"] == .integer(0))
        #expect(none["sum:salary"] == .decimal(0))
        #expect(none["count:age"] == .integer(0))
    }

    @Test func lowercaseAndUppercasePerObject() throws {
        let rows = try project(["employeeNumber", "lowercase:lastName", "uppercase:(firstName) AS up"], sort: ["employeeNumber"])
        #expect(rows.map { $0.map(\.0) } == Array(repeating: ["employeeNumber", "lowercase:lastName", "up"], count: people.count))
        let expected = people.sorted { $0.number < $1.number }
        for (row, person) in zip(rows, expected) {
            #expect(row[0].1 == .integer(person.number))
            #expect(row[1].1 == .string(person.last.lowercased()))
            #expect(row[2].1 == .string(person.first.uppercased()))
        }
    }

    // MARK: - Key paths

    @Test func toOneKeyPathsAndObjects() throws {
        let rows = try project(["firstName", "department.name", "department.company.name AS company", "department", "SELF AS object"],
                               sort: ["firstName"])
        let expected = people.sorted { $0.first < $1.first }
        // The object IDs as an object fetch gives them (a Manager's names its sub-entity).
        var employeeIDs: [Int64: String] = [:], departmentIDs: [String: String] = [:]
        for object in try store.fetch(ObjectFetchRequest(entity: "Employee")) {
            if case .integer(let number)? = object["employeeNumber"] { employeeIDs[number] = object.objectID?.description }
        }
        for object in try store.fetch(ObjectFetchRequest(entity: "Department")) {
            if case .string(let name)? = object["name"] { departmentIDs[name] = object.objectID?.description }
        }
        #expect(employeeIDs.count == people.count && departmentIDs.count == PayrollFixture.departments.count)
        #expect(employeeIDs.values.filter { $0.split(separator: "/").dropLast().last == "Manager" }.count
                == people.filter { $0.level != nil }.count)
        #expect(rows.count == expected.count)
        for (row, person) in zip(rows, expected) {
            let d = PayrollFixture.departments.first { $0.name == person.department }
            #expect(row.map(\.0) == ["firstName", "department.name", "company", "department", "object"])
            #expect(row[0].1 == .string(person.first))
            #expect(row[1].1 == (d.map { .string($0.name) } ?? .null))
            #expect(row[2].1 == (d.map { .string($0.company) } ?? .null))
            #expect(row[3].1 == (person.department.flatMap { departmentIDs[$0] }.map(ObjectValue.string) ?? .null), "\(person.first)")
            #expect(row[4].1 == employeeIDs[person.number].map(ObjectValue.string), "\(person.first)")
        }
    }

    @Test func toManyAggregatesPerObject() throws {
        let rows = try project(["name", "employees.@count", "employees.@sum.salary", "employees.@avg.age",
                                "employees.@max.hiredAt", "employees.@sum.age"], entity: "Department", sort: ["name"])
        let departments = PayrollFixture.departments.sorted { $0.name < $1.name }
        #expect(rows.count == departments.count)
        for (row, department) in zip(rows, departments) {
            let members = people.filter { $0.department == department.name }
            #expect(row[0].1 == .string(department.name))
            #expect(row[1].1 == .integer(Int64(members.count)))
            #expect(row[2].1 == .decimal(Stats.decimalSum(members.compactMap(\.salary))))
            let ages = members.compactMap(\.age).map(Double.init)
            #expect(close(double(row[3].1), ages.isEmpty ? nil : ages.reduce(0, +) / Double(ages.count)))
            #expect(row[4].1 == (members.map(\.hiredSeconds).max().map { .date($0) } ?? .null))
            #expect(row[5].1 == .integer(members.compactMap(\.age).reduce(0, +)))
        }
    }

    // MARK: - Grouping, having, distinct, sort, limit

    @Test func groupByWithEveryKindOfAggregate() throws {
        let rows = try project(["department.name", "count:employeeNumber AS n", "sum:salary AS total", "average:age",
                                "max:hiredAt", "min:age", "median:age", "stddev:age", "sum:age"],
                               groupBy: ["department.name"], sort: ["department.name"])
        let groups = Dictionary(grouping: people, by: { $0.department })
        let keys = groups.keys.sorted { ($0 ?? "") < ($1 ?? "") }   // nil sorts first, as NULL does
        #expect(rows.count == keys.count)
        for (row, key) in zip(rows, keys) {
            let members = groups[key]!
            let ages = members.compactMap(\.age).map(Double.init)
            #expect(row[0].1 == (key.map { .string($0) } ?? .null))
            #expect(row[1].1 == .integer(Int64(members.count)))
            #expect(row[2].1 == .decimal(Stats.decimalSum(members.compactMap(\.salary))))
            #expect(close(double(row[3].1), ages.isEmpty ? nil : ages.reduce(0, +) / Double(ages.count)))
            #expect(row[4].1 == .date(members.map(\.hiredSeconds).max()!))
            #expect(row[5].1 == (members.compactMap(\.age).min().map { .integer($0) } ?? .null))
            #expect(row[6].1 == (Stats.median(ages).map { .double($0) } ?? .null))
            #expect(close(double(row[7].1), Stats.populationStandardDeviation(ages)))
            #expect(row[8].1 == .integer(members.compactMap(\.age).reduce(0, +)))
        }
    }

    @Test func groupByTwoKeysAndAnObject() throws {
        let rows = try project(["department", "isActive", "count:SELF AS n"], groupBy: ["department", "isActive"])
        let groups = Dictionary(grouping: people, by: { "\($0.department ?? "-")/\($0.active)" })
        #expect(rows.count == groups.count)
        #expect(rows.map { $0[2].1 }.compactMap { if case .integer(let i) = $0 { Int(i) } else { nil } }.reduce(0, +) == people.count)
    }

    @Test func havingFiltersGroups() throws {
        let rows = try project(["department.name AS dept", "count:employeeNumber AS n", "sum:salary AS total"],
                               groupBy: ["dept"], having: "count:(employeeNumber) > 1 AND total > 1000", sort: ["-total"])
        let groups = Dictionary(grouping: people, by: { $0.department })
            .filter { $0.value.count > 1 && Stats.decimalSum($0.value.compactMap(\.salary)) > 1000 }
            .map { (key: $0.key, total: Stats.decimalSum($0.value.compactMap(\.salary)), n: $0.value.count) }
            .sorted { $0.total > $1.total }
        #expect(rows.map { $0[0].1 } == groups.map { ObjectValue.string($0.key!) })
        #expect(rows.map { $0[1].1 } == groups.map { ObjectValue.integer(Int64($0.n)) })
        #expect(rows.map { $0[2].1 } == groups.map { ObjectValue.decimal($0.total) })
        // An aggregate in having that is not among the properties, and a date bound.
        let recent = try project(["department.name"], groupBy: ["department.name"],
                                 having: "max:(hiredAt) > CAST('2020-01-01T00:00:00Z', 'NSDate')")
        let cutoff = DateParsing.secondsSince2001("2020-01-01")!
        let expected = Dictionary(grouping: people, by: { $0.department })
            .filter { $0.value.map(\.hiredSeconds).max()! > cutoff }.keys.map { $0.map { ObjectValue.string($0) } ?? .null }
        #expect(Set(recent.map { ValueText.plain($0[0].1) }) == Set(expected.map(ValueText.plain)))
    }

    @Test func distinctResults() throws {
        let rows = try project(["lastName"], distinct: true, sort: ["lastName"])
        #expect(rows.map { $0[0].1 } == Set(people.map(\.last)).sorted().map { .string($0) })
        let flags = try project(["isActive"], distinct: true)
        #expect(flags.map { $0[0].1 } == [.bool(false), .bool(true)])
    }

    @Test func sortAndLimit() throws {
        let rows = try project(["firstName", "age"], sort: ["-age", "firstName"], limit: 3)
        let expected = people.sorted { ($0.age ?? Int64.min, $1.first) > ($1.age ?? Int64.min, $0.first) }.prefix(3)
        #expect(rows.map { $0[0].1 } == expected.map { .string($0.first) })
        // Groups sorted by an aggregate's result key, descending, then limited.
        let top = try project(["department.name", "sum:salary"], groupBy: ["department.name"], sort: ["-sum:salary"], limit: 2)
        let totals = Dictionary(grouping: people, by: { $0.department })
            .map { ($0.key, Stats.decimalSum($0.value.compactMap(\.salary))) }.sorted { $0.1 > $1.1 }.prefix(2)
        #expect(top.map { $0[1].1 } == totals.map { .decimal($0.1) })
        // Sorting by an aggregate that is not a property.
        let byCount = try project(["department.name"], groupBy: ["department.name"], sort: ["-count:employeeNumber", "department.name"])
        #expect(byCount.first?[0].1 == .string("Engineering"))
        // Case-insensitive sort of a lowercase result.
        let folded = try project(["firstName"], sort: ["firstName:ci"], limit: 1)
        #expect(folded[0][0].1 == .string(people.map(\.first).min { $0.lowercased() < $1.lowercased() }!))
    }

    @Test func subEntitiesAndExactEntity() throws {
        let all = try single(["count:SELF"])
        #expect(all["count:SELF"] == .integer(Int64(people.count)))
        let managers = try store.project(try ProjectionRequest(entity: "Manager", properties: ["count:SELF", "sum:level"]))
        #expect(managers[0][0].1 == .integer(Int64(people.filter { $0.level != nil }.count)))
        #expect(managers[0][1].1 == .integer(people.compactMap(\.level).reduce(0, +)))
        let exact = try store.project(try ProjectionRequest(entity: "Employee", properties: ["count:SELF"], includesSubentities: false))
        #expect(exact[0][0].1 == .integer(Int64(people.filter { $0.level == nil }.count)))
    }

    // MARK: - Errors before SQL runs

    // The label after the entity (`properties:`, `grouping:`, `sort:`, `group filter:`) is the error's input
    // (`StoreError.input`), which a command line shows as its flag; the message itself names no option.

    func failure(_ properties: [String], entity: String = "Employee", groupBy: [String] = [], having: String? = nil,
                 sort: [String] = []) -> String {
        do {
            _ = try project(properties, entity: entity, groupBy: groupBy, having: having, sort: sort)
            return "no error"
        } catch let error as StoreError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func aggregateMixedWithUngroupedProperty() {
        #expect(failure(["firstName", "sum:salary"])
                == "entity 'Employee': grouping: 'sum:salary' is an aggregate, which folds all objects into one result, but 'firstName' has a value per object: group by it (firstName) or leave it out")
        #expect(failure(["firstName", "count:SELF"], groupBy: ["lastName"])
                == "entity 'Employee': grouping: 'firstName' is neither grouped nor an aggregate: add it to the grouping or apply a function (sum, average, count, min, max, median, stddev)")
        #expect(failure(["lastName"], groupBy: ["sum:age"])
                == "entity 'Employee': grouping: cannot group by 'sum:age': it is an aggregate; group by attributes or key paths")
    }

    @Test func havingWithoutGroupBy() {
        #expect(failure(["count:SELF"], having: "count:(SELF) > 1")
                == "entity 'Employee': group filter: it filters groups, and without a grouping there are none (filter objects with the predicate)")
        #expect(failure(["lastName", "count:SELF"], groupBy: ["lastName"], having: "age > 3") == """
            entity 'Employee': group filter: 'age' is neither grouped nor an aggregate, so it has no single value \
            per group: use a result key, a grouping key or a function such as sum:(age)
            """)
    }

    @Test func functionsOnTypesTheyDoNotTake() {
        #expect(failure(["sum:lastName"])
                == "entity 'Employee': properties: 'sum:lastName': type mismatch: sum: needs numbers, but 'lastName' is String")
        #expect(failure(["average:hiredAt"])
                == "entity 'Employee': properties: 'average:hiredAt': type mismatch: average: needs numbers, but 'hiredAt' is Date")
        #expect(failure(["median:email"])
                == "entity 'Employee': properties: 'median:email': type mismatch: median: needs numbers, but 'email' is String")
        #expect(failure(["stddev:hiredAt"])
                == "entity 'Employee': properties: 'stddev:hiredAt': type mismatch: stddev: needs numbers, but 'hiredAt' is Date")
        #expect(failure(["max:photo"])
                == "entity 'Employee': properties: 'max:photo': type mismatch: max: needs numbers, dates or strings, but 'photo' is Binary")
        #expect(failure(["lowercase:age"])
                == "entity 'Employee': properties: 'lowercase:age': type mismatch: lowercase: needs a string, but 'age' is Integer 16")
        #expect(failure(["sum:department"])
                == "entity 'Employee': properties: 'sum:department': type mismatch: sum: needs numbers, but 'department' is a relationship (Department objects); only count: takes relationships")
        #expect(failure(["count:employees"], entity: "Department")
                == "entity 'Department': properties: 'count:employees': 'employees' has several values per object (it goes through a to-many relationship); use a collection operator, e.g. 'employees.@count' or 'employees.@sum.…'")
    }

    @Test func unknownNamesSuggestTheNearest() {
        #expect(failure(["salry"])
                == "entity 'Employee': properties: 'salry': no attribute or relationship 'salry' in Employee; did you mean 'salary'?")
        #expect(failure(["sum:salry"])
                == "entity 'Employee': properties: 'sum:salry': no attribute or relationship 'salry' in Employee; did you mean 'salary'?")
        #expect(failure(["summ:salary"])
                == "properties: unknown function 'summ:' in 'summ:salary'; did you mean 'sum'? (functions: sum, average, count, min, max, median, stddev, lowercase, uppercase)")
        #expect(failure(["department.nme"])
                == "entity 'Department': properties: 'department.nme': no attribute or relationship 'nme' in Department (in 'department.nme'); did you mean 'name'?")
        #expect(failure(["age", "age"])
                == "entity 'Employee': properties: two properties have the result key 'age'; rename one with AS alias")
        #expect(failure(["age"], sort: ["-agee"])
                == "entity 'Employee': sort: 'agee': no attribute or relationship 'agee' in Employee; did you mean 'age'?")
    }

    // MARK: - SQL

    @Test func oneStatementWithBoundValues() throws {
        let request = try ProjectionRequest(
            entity: "Employee", properties: ["department.name AS dept", "sum:salary AS total", "median:age"],
            predicate: try PredicateParserShim.parse("lastName != 'Secret' AND age > 21"), groupBy: ["dept"],
            having: try PredicateParserShim.parse("total > 12345.5"), sort: [SortDescriptor("total", ascending: false)], limit: 5)
        let statement = try store.projectionStatement(request)
        #expect(statement.sql == "SELECT (SELECT t1.ZNAME FROM ZDEPARTMENT t1 WHERE (t1.Z_PK = t.ZDEPARTMENT)) AS c0, "
                + "cdstore_decimal_sum(t.ZSALARY) AS c1, cdstore_median(t.ZAGE) AS c2 FROM ZEMPLOYEE t "
                + "WHERE ((t.ZLASTNAME <> ?) AND (t.ZAGE > ?)) GROUP BY (SELECT t2.ZNAME FROM ZDEPARTMENT t2 WHERE (t2.Z_PK = t.ZDEPARTMENT)) "
                + "HAVING (cdstore_decimal_sum(t.ZSALARY)) > ? ORDER BY c1 DESC, c0 ASC, c1 ASC, c2 ASC LIMIT 5")
        #expect(statement.arguments == ["Secret".databaseValue, 21.databaseValue, 12345.5.databaseValue])
        // (So neither 12345 nor 'Secret' is in the SQL text: the whole statement is above.)
    }

    @Test func toManyAggregateIsACorrelatedSubquery() throws {
        let statement = try store.projectionStatement(try ProjectionRequest(entity: "Department", properties: ["name", "employees.@count"]))
        #expect(statement.sql.hasPrefix("SELECT t.ZNAME AS c0, (SELECT COUNT(*) FROM ZEMPLOYEE t"))
        #expect(statement.sql.components(separatedBy: "SELECT").count == 3)
    }

    // MARK: - Parsing

    @Test func propertySpellings() throws {
        let spellings = ["sum:(salary)", "sum:salary", "sum(salary)", "SUM:( salary )"]
        for text in spellings {
            let property = try ProjectionProperty(parsing: text)
            #expect(property.function == .sum && property.key == "sum:salary", "\(text)")
        }
        #expect(try ProjectionProperty(parsing: "sum:salary AS total").key == "total")
        #expect(try ProjectionProperty(parsing: "avg:age").key == "average:age")
        #expect(try ProjectionProperty(parsing: "department.name").key == "department.name")
        #expect(try ProjectionProperty(parsing: "employees.@sum.salary as s").key == "s")
        #expect(ProjectionProperty.splitList("a, sum:(b) AS c,add:to:(x, 1)") == ["a", "sum:(b) AS c", "add:to:(x, 1)"])
    }
}
