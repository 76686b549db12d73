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
        let model = try self.model.load().model
        let diagram: ModelDiagram
        do {
            diagram = try model.diagram(around: entity, depth: depth)
        } catch let error as CDStoreError where error.code == .unknownName {
            throw CLIError.input("--entity: " + error.message)
        }
        let data = switch format {
        case .mermaid: Data(diagram.mermaid().utf8)
        case .dot: Data(diagram.dot().utf8)
        case .svg: try Graphviz.svg(diagram.dot())
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

/// Graphviz's `dot -Tsvg`, which draws `model diagram --format svg` and the model page of `serve`: the library
/// gives DOT text and starts no program itself.
enum Graphviz {
    /// The `dot` executable on the `PATH`, or nil when Graphviz is not installed.
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The SVG `dot -Tsvg` draws of `dot`.
    static func svg(_ dot: String) throws -> Data {
        guard let executable else {
            throw CLIError(status: .cannotOpen, message: "--format svg runs Graphviz's dot, which is not installed "
                           + "(apt-get install graphviz, or brew install graphviz); --format dot prints the graph to render")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-Tsvg"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        // Write and read at once: a large diagram fills the pipes both ways.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(dot.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError(status: .cannotOpen, message: "dot -Tsvg failed (exit status \(process.terminationStatus)): "
                           + String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return svg
    }
}
