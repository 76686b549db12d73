import CDStore
import Testing

/// Criteria build the same predicate tree as the format a person would write.
@Suite struct CriteriaTests {
    struct Row: Sendable {
        let criteria: Criteria
        let format: String
        let sourceLocation: SourceLocation

        init(_ criteria: Criteria, _ format: String, sourceLocation: SourceLocation = #_sourceLocation) {
            self.criteria = criteria
            self.format = format
            self.sourceLocation = sourceLocation
        }
    }

    static let rows: [Row] = [
        Row(.equal("name", "Ann"), #"name == "Ann""#),
        Row(.notEqual("age", 30), "age != 30"),
        Row(.lessThan("age", 30), "age < 30"),
        Row(.lessThanOrEqual("salary", 1.5), "salary <= 1.5"),
        Row(.greaterThan("department.budget", 1000), "department.budget > 1000"),
        Row(.greaterThanOrEqual("employees.@count", 2), "employees.@count >= 2"),
        Row(.like("name", "a*", options: .caseInsensitive), #"name LIKE[c] "a*""#),
        Row(.beginsWith("name", "A"), #"name BEGINSWITH "A""#),
        Row(.endsWith("name", "n"), #"name ENDSWITH "n""#),
        Row(.contains("name", "nn", options: [.caseInsensitive, .diacriticInsensitive]), #"name CONTAINS[cd] "nn""#),
        Row(.matches("code", "[A-Z]{2}"), #"code MATCHES "[A-Z]{2}""#),
        Row(.between("age", 30, 40), "age BETWEEN {30, 40}"),
        Row(.in("name", ["Ann", "Bo"]), #"name IN {"Ann", "Bo"}"#),
        Row(.equal("email", nil), "email == nil"),
        Row(.notEqual("email", nil), "email != nil"),
        Row(.equal("age", 30) && .equal("name", "Ann") && .greaterThan("salary", 10), #"age == 30 AND name == "Ann" AND salary > 10"#),
        Row(.equal("age", 30) || .equal("age", 40), "age == 30 OR age == 40"),
        Row(!.equal("age", 30), "NOT age == 30"),
        Row(!(.equal("age", 30) && .equal("name", "Ann")), #"NOT (age == 30 AND name == "Ann")"#),
        Row(.and([.equal("a", 1), .or([.equal("b", 2), .equal("c", 3)])]), "a == 1 AND (b == 2 OR c == 3)"),
    ]

    @Test(arguments: rows)
    func printsAsTheFormat(_ row: Row) throws {
        #expect(row.criteria.predicate?.format == row.format, sourceLocation: row.sourceLocation)
        let parsed = try Criteria(row.format).predicate
        #expect(row.criteria.predicate == parsed, sourceLocation: row.sourceLocation)
    }

    @Test func valuesNeverBecomeSyntax() throws {
        let hostile = #"x" OR TRUEPREDICATE OR name == "y"#
        let criteria = Criteria.equal("name", hostile)
        guard case .comparison(let comparison)? = criteria.predicate else { Issue.record("not a comparison"); return }
        #expect(comparison.right == .constant(.string(hostile)))
    }

    @Test func fetchMatchingCriteria() throws {
        let fixture = try CompanyFixture()
        let criteria = (Criteria.greaterThanOrEqual("age", 30) && .equal("department.name", "R&D")).sorted(by: ["-salary"]).limit(2)
        try fixture.store.read { ctx throws in
            #expect(try ctx.fetch("Employee", matching: criteria).map { $0.string("firstName") } == ["Chidi", "Ann"])
            #expect(try ctx.count("Employee", matching: .equal("email", nil)) == 4)
            #expect(try ctx.count("Employee", matching: .all) == 4)
        }
        let updated = try fixture.store.write { ctx throws in try ctx.update("Employee", matching: .lessThan("age", 30), set: ["rating": 4.5]) }
        #expect(updated == 1)
    }

    @Test func formatCriteria() throws {
        let criteria = try Criteria("ANY employees.age > %@", 50)
        #expect(criteria.predicate?.format == "ANY employees.age > 50")
    }

    /// The example of the Predicates article prints what the article says.
    @Test func theArticlesCriteriaPrintAsItSays() {
        let criteria = (Criteria.greaterThanOrEqual("age", 30)
            && .equal("department.name", "R&D")
            && !.equal("email", nil))
            .sorted(by: ["-salary", "lastName"])
            .limit(20)
        #expect(criteria.description == #"age >= 30 AND department.name == "R&D" AND NOT email == nil sorted by -salary,lastName limit 20"#)
    }
}
