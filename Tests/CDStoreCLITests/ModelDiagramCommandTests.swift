import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore model diagram`: formats, SVG through Graphviz, errors.
@Suite("model diagram command")
struct ModelDiagramCommandTests {
    static let hasGraphviz = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/dot") }
    static let company = Corpus.schemas.appendingPathComponent("Company.json").path

    @Test("The model comes as an argument or from --model; dot and mermaid print the library's text")
    func formats() throws {
        let mermaid = try CLIRunner.run(["model", "diagram", Self.company])
        #expect(mermaid.status == 0 && mermaid.stderr.isEmpty)
        #expect(mermaid.stdout == String(decoding: FileManager.default.contents(atPath:
            Corpus.packageRoot.appendingPathComponent("Tests/Snapshots/diagram/Company.mmd").path) ?? Data(), as: UTF8.self))
        let dot = try CLIRunner.run(["model", "diagram", "--format", "dot", "--entity", "Badge", "--depth", "0"],
                                    environment: ["CDSTORE_MODEL": Self.company])
        #expect(dot.status == 0)
        #expect(dot.stdout.contains("\"Badge\" [label=") && !dot.stdout.contains("\"Employee\""))
    }

    @Test("The README shows Schemas/Company.json's diagram as the command draws it, in a mermaid block")
    func readmeDiagram() throws {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let diagram = try CLIRunner.run(["model", "diagram", Self.company]).stdout
        #expect(readme.contains("```mermaid\n" + diagram + "```\n"))
    }

    @Test("An SVG of a corpus model names every entity", .enabled(if: hasGraphviz, "Graphviz's dot is not installed: no SVG to check"))
    func svg() throws {
        try Corpus.require(Corpus.models)
        let model = Corpus.models.appendingPathComponent("altstoreio__AltStore__AltStore.xcdatamodeld").path
        let output = try temporaryDirectory().appendingPathComponent("AltStore.svg").path
        let result = try CLIRunner.run(["model", "diagram", model, "--format", "svg", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg"))
        let names = try CLIRunner.run(["model", "show", model, "--format", "json"]).stdout
        let entities = try #require((try JSONSerialization.jsonObject(with: Data(names.utf8)) as? [String: Any])?["entities"] as? [[String: Any]])
        #expect(entities.count == 18)
        for entity in entities {
            let name = try #require(entity["name"] as? String)
            #expect(svg.contains(">\(name)</text>"), "\(name) is not in the SVG")
        }
    }

    @Test("Errors: no dot for svg (exit 4), an unknown --entity (1), a negative --depth (2)")
    func errors() throws {
        let noDot = try CLIRunner.run(["model", "diagram", Self.company, "--format", "svg"], environment: ["PATH": "/nonexistent"])
        #expect(noDot.status == 4 && noDot.stdout.isEmpty)
        #expect(noDot.stderr == "error: --format svg runs Graphviz's dot, which is not installed (apt-get install graphviz, "
                + "or brew install graphviz); --format dot prints the graph to render\n")
        let entity = try CLIRunner.run(["model", "diagram", Self.company, "--entity", "Employe"])
        #expect(entity.status == 1 && entity.stderr == "error: --entity: no entity 'Employe' in the model; did you mean 'Employee'?\n")
        #expect(try CLIRunner.run(["model", "diagram", Self.company, "--depth=-1"]).status == 2)
    }
}
