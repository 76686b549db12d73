import CDStoreTestSupport
import Foundation
import Testing

/// An error about one input of a command names its flag where the library's description has its own label
/// (`grouping:` becomes `--group-by:`): the library's errors carry the input as data, and one table
/// (`InputFlags`) names the flag. Whole stderr and exit status per case.
@Suite struct InputFlagTests {
    let company: ProjectCommandTests

    init() throws {
        company = try ProjectCommandTests()
    }

    @Test(arguments: [
        (["project", "Employee", "--properties", "lastName,count:SELF", "--group-by", "department.name"],
         "error: entity 'Employee': --group-by: 'lastName' is neither grouped nor an aggregate: add it to the grouping or "
            + "apply a function (sum, average, count, min, max, median, stddev)\n"),
        (["project", "Employee", "--properties", "lastName,count:SELF", "--group-by", "lastName", "--having", "age > 3"],
         "error: entity 'Employee': --having: 'age' is neither grouped nor an aggregate, so it has no single value per "
            + "group: use a result key, a grouping key or a function such as sum:(age)\n"),
        (["project", "Employee", "--properties", "lastName", "--sort", "sum:age"],
         "error: entity 'Employee': --sort: 'sum:age': an aggregate needs a grouping\n"),
        (["fetch", "Employee", "--sort", "department"],
         "error: entity 'Employee': --sort: 'department': it is a relationship, not an attribute\n"),
        (["fetch", "Employee", "--where", "age > $minimum", "--var", "maximum=3"],
         "error: --var: no value for variable $minimum\n"),
        (["update", "Employee", "--all", "--set", "salry=1"],
         "error: entity 'Employee': --set: no attribute 'salry' in Employee; did you mean 'salary'?\n"),
    ])
    func anErrorNamesTheFlagToFix(arguments: [String], stderr: String) throws {
        let result = try company.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr == stderr)
    }

    /// A syntax error in `--having` is about `--having`, not `--where`, though both are predicates.
    @Test func aHavingSyntaxErrorNamesHaving() throws {
        let result = try company.run(["project", "Employee", "--properties", "count:SELF", "--group-by", "lastName",
                                      "--having", "count:(SELF) >"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: --having: "), "\(result.stderr)")
    }
}
