import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreCLI

/// The REPL's parts that need no process: splitting statements, continuation lines, completion.
@Suite("The REPL")
struct REPLTests {
    @Test(arguments: [
        (#"fetch E --where "name BEGINSWITH[c] 'a'""#, ["fetch", "E", "--where", "name BEGINSWITH[c] 'a'"]),
        (#"insert Item str='two words' i16=3"#, ["insert", "Item", "str=two words", "i16=3"]),
        (#"count  Item   --where  'str == "x"'"#, ["count", "Item", "--where", #"str == "x""#]),
        (#"a\ b "c\"d" ''"#, ["a b", #"c"d"#, ""]),
        ("count Item\n--where\t'a\nb'", ["count", "Item", "--where", "a\nb"]),
        (#"count P --where (age > 5 AND name == "a)" OR x IN {1, 2})"#,
         ["count", "P", "--where", #"(age > 5 AND name == "a)" OR x IN {1, 2})"#]),
        (#"insert P --json {"a": [1, "]"],"#, ["insert", "P", "--json"]),
        ("project E --properties name,sum:(salary)", ["project", "E", "--properties", "name,sum:(salary)"]),
    ])
    func linesSplitLikeAShell(line: String, expected: [String]) throws {
        if CommandLineSplitter.isOpen(line) {
            #expect(CommandLineSplitter.partial(line).complete == expected)
        } else {
            #expect(try CommandLineSplitter.split(line) == expected)
        }
    }

    @Test func anUnterminatedQuoteOrGroupIsAnError() {
        let quote = #expect(throws: CommandLineSplitter.UnterminatedQuote.self) { try CommandLineSplitter.split("count 'Item") }
        #expect(quote?.description == "unterminated ' quote")
        let group = #expect(throws: CommandLineSplitter.UnclosedGroup.self) { try CommandLineSplitter.split("count I --where (a") }
        #expect(group?.description == "unclosed (")
    }

    /// Lines typed, and the statements they make: a statement goes on while a quote or a group is open.
    @Test func statementsGoOnWhileAQuoteOrGroupIsOpen() {
        let lines = [
            #"count Person --where "(age > 50"#, #"AND active == YES)""#,
            "count Person --where (age > 50", "  AND active == YES)",
            ".schema Person", "", "# a comment",
            #"insert P --json '{"name":"#, #""a)b"}'"#,
            "count Person",
        ]
        var buffer = StatementBuffer()
        var statements: [String] = []
        var prompts: [String] = []
        for (index, line) in lines.enumerated() {
            prompts.append(buffer.prompt)
            if let statement = buffer.add(line, number: index + 1) {
                statements.append("\(buffer.firstLine): " + statement)
            }
        }
        #expect(statements == [
            "1: count Person --where \"(age > 50\nAND active == YES)\"",
            "3: count Person --where (age > 50\n  AND active == YES)",
            "5: .schema Person", "6: ", "7: # a comment",
            "8: insert P --json '{\"name\":\n\"a)b\"}'",
            "10: count Person",
        ])
        #expect(prompts == ["cdstore> ", "   ...> ", "cdstore> ", "   ...> ", "cdstore> ", "cdstore> ", "cdstore> ",
                            "cdstore> ", "   ...> ", "cdstore> "])
    }

    /// What Tab offers for the word before the cursor, after the text before it (Company's model: Employee has a
    /// to-one `department`, Department a to-many `employees`).
    @Test(arguments: [
        ("fe", "", REPLCompletion.Result.words(["fetch"])),
        (".s", "", .words([".schema"])),
        ("", "fetch ", .words(["Badge", "Company", "Department", "Employee", "Manager"])),
        ("Dep", "count ", .words(["Department"])),
        ("--wh", "fetch Employee ", .words(["--where"])),
        ("--st", "fetch Employee ", .words(["--store", "--strict"])),
        ("--li", "count Employee ", .words([])),
        ("department.na", #"fetch Employee --where ""#, .words(["department.name"])),
        ("department.ma", "fetch Employee --where \"age > 3 AND\n", .words(["department.manager"])),
        ("employees.first", "count Department --where 'ANY ", .words(["employees.firstName"])),
        ("employees.department.bu", "project Department --properties name,", .words(["employees.department.budget"])),
        ("BEG", #"fetch Employee --where "firstName "#, .words(["BEGINSWITH"])),
        ("-sal", "fetch Employee --sort ", .words(["-salary"])),
        ("sal", "update Employee --set ", .words(["salary"])),
        ("sal", "update Employee --set salary=", .words(["salary"])),
        ("department.", "project Employee --group-by=", .words(["department.budget", "department.company",
                                                               "department.employees", "department.manager",
                                                               "department.name"])),
        ("first", "insert Employee ", .words(["firstName"])),
        ("A", "insert Employee firstName=", .words([])),
        ("n", "fetch Employee --format ", .words(["ndjson"])),
        ("", "insert Employee --file ", .files),
        ("/tm", "import ", .files),
        ("", "fetch Employee --where x --store ", .files),
        ("", ".read ", .files),
        ("", ".output ", .files),
        ("", ".open ", .files),
        ("c", ".format ", .words(["csv"])),
        ("o", ".timer ", .words(["off", "on"])),
        ("Emp", ".schema ", .words(["Employee"])),
        ("s", "model ", .words(["show"])),
        ("--fo", "model show ", .words(["--format"])),
        ("co", "help ", .words(["count"])),
    ])
    func tabCompletes(word: String, before: String, expected: REPLCompletion.Result) throws {
        let model = try ModelLoader.load(Corpus.packageRoot.appendingPathComponent("Schemas/Company.json").path).model
        #expect(REPLCompletion(model: model).complete(word, after: before) == expected)
    }
}
