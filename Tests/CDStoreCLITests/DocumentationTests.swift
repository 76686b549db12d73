import CDStoreTestSupport
import Foundation
import Testing

/// The README documents every subcommand users can run.
@Suite("Documentation")
struct DocumentationTests {
    static let subcommands = ["insert", "fetch", "count", "project", "update", "delete", "export", "import", "seed",
                              "migrate", "info", "verify", "history", "repl",
                              "model show", "model validate", "model compile", "model hashes", "model diff", "diff", "model diagram", "serve"]

    @Test(arguments: subcommands)
    func readmeMentionsSubcommand(name: String) throws {
        let readme = Corpus.packageRoot.appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains("cdstore \(name)"), "README.md never shows `cdstore \(name)`")
    }

    /// Every subcommand the binary offers is in the list above, so a new one cannot go undocumented.
    @Test func listCoversTheBinarysSubcommands() throws {
        for command in [[], ["model"]] {
            let help = try CLIRunner.run(command + ["--help"], environment: ["COLUMNS": "80"]).stdout
            let section = help.components(separatedBy: "SUBCOMMANDS:\n").last ?? ""
            let names = section.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else { return nil }
                return String(word) == "See" ? nil : String(word)
            }
            #expect(!names.isEmpty)
            for name in names where name != "model" {
                #expect(Self.subcommands.contains((command + [name]).joined(separator: " ")), "\(command + [name]) is not listed")
            }
        }
    }
}
