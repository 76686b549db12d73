import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreCLI

@Suite("The REPL")
struct REPLTests {
    @Test(arguments: [
        (#"fetch Employee --where "name BEGINSWITH[c] 'a'""#, ["fetch", "Employee", "--where", "name BEGINSWITH[c] 'a'"]),
        (#"insert Item str='two words' i16=3"#, ["insert", "Item", "str=two words", "i16=3"]),
        (#"count  Item   --where  'str == "x"'"#, ["count", "Item", "--where", #"str == "x""#]),
        (#"a\ b "c\"d" ''"#, ["a b", #"c"d"#, ""]),
    ])
    func linesSplitLikeAShell(line: String, expected: [String]) throws {
        #expect(try CommandLineSplitter.split(line) == expected)
    }

    @Test func anUnterminatedQuoteIsAnError() {
        #expect(throws: CommandLineSplitter.UnterminatedQuote.self) { try CommandLineSplitter.split("count 'Item") }
    }

    @Test func completionOffersCommandsOptionsAndModelNames() {
        let session = REPLSession(storePath: nil, modelPath: Fixtures.model.path, modelVersion: nil)
        #expect(session.completions(for: "fe", isFirst: true) == ["fetch"])
        #expect(session.completions(for: ".s", isFirst: true) == [".schema"])
        #expect(session.completions(for: "--wh", isFirst: false) == ["--where"])
        #expect(session.completions(for: "Ci", isFirst: false) == ["Circle"])
        #expect(session.completions(for: "i1", isFirst: false) == ["i16"])
    }

    @Test func pipedLinesRunAsCommandsOnTheSessionStore() throws {
        let box = try Sandbox()
        let script = """
            insert Item i16=7 str='a b'
            count Item
            # a comment
            fetch Item --format csv --no-relationships
            bogus
            .entities
            .quit
            count Item
            """
        let result = try CLIRunner.run(["repl", "--store", box.store, "--model", box.model], stdin: script)
        #expect(result.status == 0)
        #expect(Sandbox.anonymized(result.stdout) == """
            inserted 1 object into Item
            1
            _id,blob,dec,dbl,flag,flt,i16,i32,i64,link,str,uid,when,xf
            x-coredata://<store-uuid>/Item/p1,,0,,,,7,,,,a b,,,
            Checked
            Circle : Shape
            Item
            Shape (abstract)
            Square : Shape

            """)
        #expect(result.stderr == "error: unknown command 'bogus'; try .help\n")
    }

    @Test func helpInTheSessionShowsACommandsHelp() throws {
        let box = try Sandbox()
        let result = try CLIRunner.run(["repl", "--store", box.store, "--model", box.model], stdin: "help count\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // The same text as `cdstore count --help` (whose golden file GoldenOutputTests keeps), in the same terminal width.
        let help = try CLIRunner.run(["count", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: Print the number of objects of an entity"))
        #expect(result.stdout == help.stdout)
    }

    /// `.entities` on a session whose store does not exist printed nothing at all.
    @Test func dotCommandsSayWhyThereIsNoModel() throws {
        let box = try Sandbox()
        let result = try CLIRunner.run(["repl", "--store", box.path("missing.sqlite")], stdin: ".entities\n")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: no store at"), "\(result.stderr)")
    }
}
