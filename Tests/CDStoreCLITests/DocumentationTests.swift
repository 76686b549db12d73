import CDStoreTestSupport
import Foundation
import Testing

/// The README documents every subcommand users can run.
@Suite("Documentation")
struct DocumentationTests {
    static let subcommands = ["insert", "fetch", "count", "project", "update", "delete", "export", "import", "seed",
                              "migrate", "info", "verify", "history", "repl",
                              "model show", "model validate", "model compile", "model hashes", "model diff", "diff", "model diagram",
                              "model generate", "serve", "mcp", "mapping", "mapping show", "mapping infer", "scan", "watch"]

    @Test(arguments: subcommands)
    func readmeMentionsSubcommand(name: String) throws {
        let readme = Corpus.packageRoot.appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains("cdstore \(name)"), "README.md never shows `cdstore \(name)`")
    }

    /// The README's demo block is what `Scripts/demo.sh` prints, run here with the debug binary
    /// (`Scripts/readme-demo.py --check`): it cannot go stale. `make readme-demo` rewrites it.
    @Test func readmeDemoIsWhatTheDemoPrints() throws {
        let script = Corpus.packageRoot.appendingPathComponent("Scripts/readme-demo.py").path
        let result = try ProcessRunner.run("python3", [script, CLIRunner.binary, "--check"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// `make test` (what CI runs) builds and runs both example packages (the second with the plugins) and installs
    /// under a temporary prefix to run the installed binary; `make release-check` runs the command-line tests on the
    /// release programs and installs the packages on a clean Debian: a break in any cannot land unseen by one of them.
    @Test func makeTestRunsTheExamplesAndTheInstallAndReleaseCheckTheShippedPrograms() throws {
        let makefile = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        func recipe(_ target: String) -> String {
            makefile.components(separatedBy: "\n\(target):").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        }
        func made(_ target: String) -> [Substring] {
            recipe(target).split(separator: "\n").filter { $0.contains("$(MAKE)") }.flatMap { $0.split(separator: " ") }
        }
        for target in ["browser-test", "mcp-test", "install-check", "example", "plugins-test"] {
            #expect(made("test").contains(Substring(target)), "make test does not run \(target): \(recipe("test"))")
        }
        #expect(recipe("test").contains("$(SWIFT) test --skip-build"), "\(recipe("test"))")
        for target in ["browser-test", "mcp-test", "install-check", "dist-check", "fuzz-ci"] {
            #expect(made("release-check").contains(Substring(target)), "make release-check does not run \(target)")
        }
        #expect(recipe("release-check").contains("CDSTORE_BIN=$(CURDIR)/.build/release/cdstore $(SWIFT) test --skip-build"),
                "\(recipe("release-check"))")
        let check = recipe("install-check")
        #expect(check.contains("mktemp -d") && check.contains("Scripts/install.sh") && check.contains("$$prefix/bin/cdstore\" "),
                "\(check)")
    }

    /// Every subcommand the binary offers is in the list above, so a new one cannot go undocumented.
    @Test func listCoversTheBinarysSubcommands() throws {
        for command in [[], ["model"], ["mapping"]] {
            let help = try CLIRunner.run(command + ["--help"], environment: ["COLUMNS": "80"]).stdout
            let section = help.components(separatedBy: "SUBCOMMANDS:\n").last ?? ""
            let names = section.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else { return nil }
                return String(word) == "See" ? nil : String(word)
            }
            #expect(!names.isEmpty)
            for name in names where name != "model" && name != "mapping" {
                #expect(Self.subcommands.contains((command + [name]).joined(separator: " ")), "\(command + [name]) is not listed")
            }
        }
    }
}
