import CDStoreModel
import Foundation

extension CDStore {
    /// The store's model as the SVG diagram `cdstore model diagram --format svg` draws: entities with their
    /// attributes, inheritance, and relationships with crow's-foot cardinalities.
    ///
    /// Graphviz's `dot`, found on the `PATH`, lays the diagram out; without it this throws
    /// ``CDStoreError/Code/cannotOpen``. ``modelDiagramDOT()`` gives the graph to render elsewhere.
    public func modelDiagramSVG() throws -> Data {
        try Graphviz.svg(try modelDiagramDOT())
    }

    /// The store's model as Graphviz DOT text.
    public func modelDiagramDOT() throws -> String {
        try CDStoreError.wrapping { try ModelDiagram(model).dot() }
    }
}

/// Runs Graphviz's `dot -Tsvg`: for ``CDStore/modelDiagramSVG()`` and the CLI's `model diagram --format svg`.
package enum Graphviz {
    /// The `dot` executable on the `PATH`, or nil when Graphviz is not installed.
    package static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    package static func svg(_ dot: String) throws -> Data {
        guard let executable else {
            throw CDStoreError(.cannotOpen, "drawing the model as SVG runs Graphviz's dot, which is not installed "
                               + "(apt-get install graphviz, or brew install graphviz)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-Tsvg"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try CDStoreError.wrapping { try process.run() }
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
            throw CDStoreError(.cannotOpen, "dot -Tsvg failed (exit status \(process.terminationStatus)): "
                               + String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return svg
    }
}
