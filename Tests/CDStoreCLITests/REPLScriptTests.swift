import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore repl` with statements piped in, as scripts use it: whole outputs (golden files
/// `Tests/Snapshots/repl-*.txt`), line numbers in errors, exit statuses.
@Suite("The REPL, scripted")
struct REPLScriptTests {
    /// Runs `cdstore repl --store STORE --model MODEL arguments…` with `script` on standard input.
    static func repl(_ box: Sandbox, _ script: String, _ arguments: [String] = []) throws -> ProcessResult {
        try CLIRunner.run(["repl", "--store", box.store, "--model", box.model] + arguments, stdin: script)
    }

    /// Standard output, standard error and the exit status as one text, with the sandbox's folder written `<dir>`
    /// and the package's `<package>`, for a golden file.
    static func transcript(_ result: ProcessResult, _ box: Sandbox) -> String {
        ("stdout:\n" + result.stdout + "stderr:\n" + result.stderr + "exit status: \(result.status)\n")
            .replacingOccurrences(of: box.folder.path, with: "<dir>")
            .replacingOccurrences(of: Corpus.packageRoot.path, with: "<package>")
    }

    @Test func everyDotCommand() throws {
        let box = try Sandbox()
        let script = """
            .help
            .entities
            insert Item i16=7 str='a b'
            insert Circle radius=2 label=round
            .entities
            .schema Circle Square
            .format
            .format csv
            fetch Item --no-relationships
            .headers off
            fetch Item --no-relationships
            fetch Item --no-relationships --format ndjson
            .headers on
            .format table
            fetch Shape
            .model
            .open
            .timer off
            .output stdout
            .exit
            count Item
            """
        try assertSnapshot(Sandbox.anonymized(Self.transcript(try Self.repl(box, script), box)), named: "repl-dot-commands.txt")
    }

    /// `.mode` and `.format line`: a table's records expanded, whole values; piped in, `auto` (the default) keeps
    /// tables, which have no terminal to be too wide for.
    @Test func tableModes() throws {
        let box = try Sandbox()
        let script = """
            insert Item i16=7 str='a b' dbl=0.1
            insert Item --json '{"i16": 8, "str": "two\\nlines", "dec": 76000.16666666667}'
            .mode
            fetch Item --no-relationships --sort i16 --format table
            .mode line
            fetch Item --no-relationships --sort i16 --format table
            project Item --properties 'i16,str' --sort i16 --format table
            fetch Item --no-relationships --sort i16 --format csv
            .mode table
            project Item --properties 'i16,dec' --sort i16 --format table
            .format line
            project Item --properties 'i16,dec' --sort i16
            .mode wide
            .format xml
            """
        try assertSnapshot(Sandbox.anonymized(Self.transcript(try Self.repl(box, script), box)), named: "repl-modes.txt")
    }

    /// Each failing statement says its line (a statement over several lines, its first), the others still run,
    /// and the exit status is 1.
    @Test func failuresSayTheirLineAndSetTheExitStatus() throws {
        let box = try Sandbox()
        let script = """
            insert Item i16=1
            count Itme
            count Item --where "i16 ==
            'x'"
            fetch Item --limit -1
            .schema Nothing
            .format xml
            bogus
            count Item
            count Item --where 'i16 > 0
            """
        try assertSnapshot(Sandbox.anonymized(Self.transcript(try Self.repl(box, script), box)), named: "repl-errors.txt")
        let bail = try Self.repl(box, script, ["--bail"])
        try assertSnapshot(Sandbox.anonymized(Self.transcript(bail, box)), named: "repl-bail.txt")
    }

    @Test func aScriptWithoutFailuresExitsZero() throws {
        let box = try Sandbox()
        let result = try Self.repl(box, "insert Item i16=1\ncount Item\n")
        #expect(result.stdout == "inserted 1 object into Item\n1\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    /// `.read` runs a file's statements; errors in it say FILE:LINE after the line of the `.read`, nested too.
    @Test func readRunsFilesAndTheirErrorsSayWhere() throws {
        let box = try Sandbox()
        try box.write("inner.txt", "count Item\ncount Nope\n.read \(box.path("missing.txt"))\n")
        try box.write("outer.txt", """
            insert Item i16=1
            .read \(box.path("inner.txt"))
            count Item --where (i16 ==
              1)
            """)
        try box.write("self.txt", ".read \(box.path("self.txt"))\n")
        let script = ".read \(box.path("outer.txt"))\ncount Item\n.read \(box.path("self.txt"))\n"
        try assertSnapshot(Sandbox.anonymized(Self.transcript(try Self.repl(box, script), box)), named: "repl-read.txt")
    }

    @Test func outputGoesToAFileUntilStdout() throws {
        let box = try Sandbox()
        let script = """
            insert Item i16=1
            .output \(box.path("out.txt"))
            count Item
            fetch Item --no-relationships --format csv
            count Nope
            .output stdout
            count Item
            .output \(box.path("no/such/dir/out.txt"))
            """
        let result = try Self.repl(box, script)
        #expect(result.stdout == "inserted 1 object into Item\n1\n")
        #expect(Self.transcript(result, box).hasSuffix("""
            stderr:
            error: line 5: no entity 'Nope' in the model
            error: line 8: cannot write to <dir>/no/such/dir/out.txt: No such file or directory
            exit status: 1

            """))
        let file = Sandbox.anonymized(try String(contentsOfFile: box.path("out.txt"), encoding: .utf8))
        #expect(file == """
            1
            _id,blob,dec,dbl,flag,flt,i16,i32,i64,link,str,uid,when,xf
            x-coredata://<store-uuid>/Item/p1,,0,,,,1,,,,,,,

            """)
    }

    @Test func csvWithoutHeaders() throws {
        let box = try Sandbox()
        let script = """
            insert Item i16=1 str=one
            .format csv
            .headers off
            fetch Item --no-relationships
            project Item --properties i16,str
            fetch Item --no-relationships --format json
            .format table
            project Item --properties i16,str
            """
        let result = try Self.repl(box, script)
        #expect(result.stderr == "")
        #expect(Sandbox.anonymized(result.stdout) == """
            inserted 1 object into Item
            x-coredata://<store-uuid>/Item/p1,,0,,,,1,,,,one,,,
            1,one
            [
            {"_id":"x-coredata://<store-uuid>/Item/p1","blob":null,"dec":0,"dbl":null,"flag":null,"flt":null,\
            "i16":1,"i32":null,"i64":null,"link":null,"str":"one","uid":null,"when":null,"xf":null}
            ]
            1  one

            """)
    }

    @Test func timerPrintsEachCommandsRunTime() throws {
        let box = try Sandbox()
        let result = try Self.repl(box, ".timer on\ncount Item\n.entities\ncount Item\n.timer off\ncount Item\n")
        #expect(result.stdout == """
            0
            Checked           0
            Circle : Shape    0
            Item              0
            Shape (abstract)  0
            Square : Shape    0
            0
            0

            """)
        let line = #"Run Time: real \d+\.\d{3} user \d+\.\d{3} sys \d+\.\d{3}\n"#
        #expect(result.stderr.wholeMatch(of: try Regex("note: created a new store at .*\n" + line + line)) != nil,
                "\(result.stderr)")
    }

    /// A failed first write removes the store it created; a failing command later leaves the session's store be.
    @Test func aFailingCommandRemovesOnlyAStoreItCreated() throws {
        let box = try Sandbox()
        let first = try Self.repl(box, "insert Item i16=notanumber\n")
        #expect(first.status == 1)
        #expect(!FileManager.default.fileExists(atPath: box.store))
        let later = try Self.repl(box, "insert Item i16=1\ninsert Item i16=notanumber\ncount Item\n")
        #expect(later.status == 1)
        #expect(later.stdout == "inserted 1 object into Item\n1\n")
    }

    @Test func helpInTheSessionShowsACommandsHelp() throws {
        let box = try Sandbox()
        let result = try Self.repl(box, "help count\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        // The same text as `cdstore count --help` (whose golden file GoldenOutputTests keeps).
        let help = try CLIRunner.run(["count", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: Print the number of objects of an entity"))
        #expect(result.stdout == help.stdout)
    }

    /// `.entities` on a session whose store does not exist, and no model, says why it prints nothing.
    @Test func dotCommandsSayWhyThereIsNoModel() throws {
        let box = try Sandbox()
        let result = try CLIRunner.run(["repl", "--store", box.path("missing.sqlite")], stdin: ".entities\n")
        #expect(result.stdout == "")
        #expect(result.stderr == "error: line 1: no store at \(box.path("missing.sqlite"))\n")
        #expect(result.status == 1)
    }
}
