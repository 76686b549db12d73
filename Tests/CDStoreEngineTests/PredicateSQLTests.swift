import CDStoreModel
import CDStorePredicate
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// The SQL the compiler writes: shapes of the representative constructs, bound parameters only, and index use.
@Suite("Predicate SQL text")
struct PredicateSQLTests {
    let store = GraphFixture.shared.store

    func query(_ entity: String, _ text: String, _ arguments: [FormatArgument] = [],
               sort: [CDStoreEngine.SortDescriptor] = []) throws -> QueryBuilder {
        let request = ObjectFetchRequest(entity: entity, predicate: try PredicateParserShim.parse(text, arguments), sort: sort)
        return try QueryBuilder(store: store, request: request)
    }

    func condition(_ entity: String, _ text: String, _ arguments: [FormatArgument] = []) throws -> SQLFragment {
        try query(entity, text, arguments).condition
    }

    @Test func plainComparisonIsTheBareColumn() throws {
        let f = try condition("Employee", "name == 'x' OR age > 3")
        #expect(f.sql == "(t.Z_ENT BETWEEN ? AND ?) AND ((t.ZNAME = ?) OR (t.ZAGE > ?))")
        #expect(f.arguments == [4.databaseValue, 5.databaseValue, "x".databaseValue, 3.databaseValue])
    }

    @Test func toOneChainIsACorrelatedScalarSubqueryWithLeftJoins() throws {
        let f = try condition("Employee", "department.company.name == 'Acme'")
        #expect(f.sql == "(t.Z_ENT BETWEEN ? AND ?) AND ((SELECT t2.ZNAME FROM ZDEPARTMENT t1 LEFT JOIN ZCOMPANY t2 "
                + "ON t2.Z_PK = t1.ZCOMPANY WHERE (t1.Z_PK = t.ZDEPARTMENT)) = ?)")
        #expect(f.arguments.last == "Acme".databaseValue)
    }

    @Test func toOneWithNilIsTheForeignKey() throws {
        #expect(try condition("Employee", "manager == nil").sql == "(t.Z_ENT BETWEEN ? AND ?) AND (t.ZMANAGER IS NULL)")
        #expect(try condition("Employee", "manager != nil").sql == "(t.Z_ENT BETWEEN ? AND ?) AND (t.ZMANAGER IS NOT NULL)")
    }

    @Test func anyOverManyToManyIsExistsThroughTheJoinTable() throws {
        let f = try condition("Employee", "ANY projects.title ==[c] 'x'")
        #expect(f.sql == "(t.Z_ENT BETWEEN ? AND ?) AND (EXISTS (SELECT 1 FROM Z_4PROJECTS j2 JOIN ZPROJECT t1 ON "
                + "t1.Z_PK = j2.Z_6PROJECTS WHERE (j2.Z_4MEMBERS = t.Z_PK) AND (cdstore_strcmp('equal', 1, t1.ZTITLE, ?))))")
        #expect(f.arguments.last == "x".databaseValue)
    }

    @Test func allIsNotExistsOfAFailingElementWithTheSubEntityRange() throws {
        let f = try condition("Department", "ALL employees.age > 30")
        #expect(f.sql == "(NOT EXISTS (SELECT 1 FROM ZPERSON t1 WHERE (t1.ZDEPARTMENT = t.Z_PK) AND "
                + "(t1.Z_ENT BETWEEN ? AND ?) AND (NOT IFNULL((t1.ZAGE > ?), 0))))")
        #expect(f.arguments == [4.databaseValue, 5.databaseValue, 30.databaseValue])
    }

    @Test func subqueryCountIsACorrelatedCount() throws {
        let f = try condition("Employee", "SUBQUERY(projects, $p, $p.priority > 1).@count > 0")
        #expect(f.sql == "(t.Z_ENT BETWEEN ? AND ?) AND ((SELECT COUNT(*) FROM Z_4PROJECTS j2 JOIN ZPROJECT t1 ON "
                + "t1.Z_PK = j2.Z_6PROJECTS WHERE (j2.Z_4MEMBERS = t.Z_PK) AND (t1.ZPRIORITY > ?)) > ?)")
        #expect(f.arguments == [4.databaseValue, 5.databaseValue, 1.databaseValue, 0.databaseValue])
    }

    @Test func sumIsACorrelatedAggregate() throws {
        let f = try condition("Department", "employees.@sum.salary > 100")
        #expect(f.sql == "((SELECT COALESCE(SUM(t1.ZSALARY), 0) FROM ZPERSON t1 WHERE (t1.ZDEPARTMENT = t.Z_PK) AND "
                + "(t1.Z_ENT BETWEEN ? AND ?)) > ?)")
    }

    @Test func toManyWithoutInverseUsesTheHiddenToOne() throws {
        #expect(try condition("Project", "ANY tags.label == 'x'").sql
                == "(EXISTS (SELECT 1 FROM ZTAG t1 WHERE (t1.Z6TAGS = t.Z_PK) AND (t1.ZLABEL = ?)))")
    }

    @Test func notIsTwoValued() throws {
        #expect(try condition("Company", "NOT (name == 'x')").sql == "(NOT IFNULL((t.ZNAME = ?), 0))")
    }

    @Test func sortByToOneKeyPath() throws {
        let q = try query("Employee", "TRUEPREDICATE", sort: [.init(parsing: "-department.name:ci"), .init("name")])
        #expect(q.order == ["cdstore_casefold((SELECT t1.ZNAME FROM ZDEPARTMENT t1 WHERE (t1.Z_PK = t.ZDEPARTMENT))) DESC",
                            "t.ZNAME ASC", "t.Z_PK ASC"])
    }

    /// User text travels only as bound values, whatever it contains.
    @Test func userTextNeverEntersSQL() throws {
        let hostile = "x'); DROP TABLE ZPERSON; --"
        for text in ["name == %@", "ANY projects.title == %@", "department.company.name == %@", "name LIKE[cd] %@",
                     "SUBQUERY(projects, $p, $p.title == %@).@count > 0", "name IN {%@, 'a'}", "department.employees.name CONTAINS %@"] {
            let f = try condition("Employee", text, [.string(hostile)])
            #expect(!f.sql.contains("DROP"), "\(text)")
            #expect(!f.sql.contains("'x'"), "\(text)")
            #expect(f.arguments.contains(hostile.databaseValue), "\(text)")
            #expect(f.sql.filter { $0 == "?" }.count == f.arguments.count, "\(text)")
        }
        #expect(try GraphFixture.shared.fetchKeys("Employee", PredicateParserShim.parse("name == %@", [.string(hostile)])) == [])
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 11)
    }

    /// Plain comparisons stay index-friendly: the uniqueness constraint's index serves `email == ?`, the to-one
    /// foreign key index serves the correlated to-many subquery.
    @Test func explainQueryPlanUsesIndexes() throws {
        func plan(_ entity: String, _ text: String) throws -> String {
            let select = try query(entity, text).selectStatement()
            return try DatabaseQueue(path: store.path).read { db in
                try GRDB.Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + select.sql, arguments: StatementArguments(select.arguments))
                    .map { $0["detail"] as String }.joined(separator: "\n")
            }
        }
        let indexes = store.layout.indexes.filter { $0.table == "ZPERSON" }.map(\.name)
        let email = try plan("Person", "email == 'ann@acme.com'")
        #expect(email.contains("SEARCH") && (email.contains("USING INDEX") || email.contains("USING COVERING INDEX")),
                "\(email)\nindexes: \(indexes)")
        let fk = try plan("Department", "ANY employees.name == 'Ann'")
        #expect(fk.contains("USING INDEX") || fk.contains("USING COVERING INDEX"), "\(fk)\nindexes: \(indexes)")
        let key = try plan("Employee", "department.name == 'Sales'")
        #expect(key.contains("USING INTEGER PRIMARY KEY"), "\(key)")
    }
}
