import ArgumentParser
import CDStore
import Foundation

/// `cdstore model diagram`: a model as a Mermaid, Graphviz DOT or SVG diagram.
struct ModelDiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw a model: entities, attributes, inheritance and relationships, as Mermaid, DOT or SVG.",
        discussion: """
        mermaid (the default) is an erDiagram that GitHub draws inside a ```mermaid block in Markdown; dot is \
        Graphviz input; svg runs Graphviz's dot -Tsvg (exit status 4 when dot is not installed). Each entity lists \
        its own attributes; relationship lines carry crow's-foot cardinalities at both ends, each inverse pair is \
        one line labelled "name / inverse", and delete rules other than Nullify and ordered to-manys are noted. \
        --entity with --depth draws only the neighbourhood of one entity in a large model.

        Examples:
          cdstore model diagram Schemas/Company.json
          cdstore model diagram App.xcdatamodeld --entity Order --depth 2 --format dot
          cdstore model diagram App.xcdatamodeld --format svg -o model.svg
        """)

    @OptionGroup var model: ModelArgument

    @Option(name: .long, help: ArgumentHelp("Output format: mermaid, dot or svg (default mermaid).", valueName: "format"))
    var format: DiagramFormat = .mermaid

    @Option(name: .long, help: ArgumentHelp("Draw only this entity and its neighbourhood (see --depth).", valueName: "entity"))
    var entity: String?

    @Option(name: .long, help: ArgumentHelp("With --entity: how many steps (relationships, parents, sub-entities) away to draw (default 1).",
                                            valueName: "n"))
    var depth: Int = 1

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (default: standard output).", valueName: "path"))
    var output: String?

    func validate() throws {
        if depth < 0 { throw ValidationError("--depth must be 0 or more") }
    }

    func run() throws {
        let loaded = try model.load()
        if let entity, loaded.model.entity(named: entity) == nil {
            throw CLIError.input("--entity: " + loaded.model.noEntityMessage(entity))
        }
        let diagram = try ModelDiagram(loaded.model, around: entity, depth: depth)
        let data: Data = switch format {
        case .mermaid: Data(diagram.mermaid().utf8)
        case .dot: Data(diagram.dot().utf8)
        case .svg: try GraphvizRenderer.svg(diagram.dot())
        }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: data) else { throw CLIError.input("cannot write \(output)") }
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

enum DiagramFormat: String, ExpressibleByArgument, CaseIterable {
    case mermaid, dot, svg
}

/// Renders DOT to SVG with the library's Graphviz runner, saying in the command line's words what to do when
/// Graphviz is missing.
enum GraphvizRenderer {
    static func svg(_ dot: String) throws -> Data {
        guard Graphviz.executable != nil else {
            throw CLIError(status: .cannotOpen, message: "--format svg runs Graphviz's dot, which is not installed "
                           + "(apt-get install graphviz, or brew install graphviz); --format dot prints the graph to render")
        }
        return try Graphviz.svg(dot)
    }
}
