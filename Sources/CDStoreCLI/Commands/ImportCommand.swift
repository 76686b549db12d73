import ArgumentParser
import CDStore
import Foundation

/// `cdstore import FILE`: read an exported graph back.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a graph written by `cdstore export` (json graph document or ndjson) into a store.",
        discussion: """
        Every object and relationship of the document is created in one transaction. Into an empty store the \
        objects keep their primary keys, so the graph comes back identical (object IDs differ only by the \
        store UUID); otherwise they get new keys and relationships follow them. Relationships may also name \
        objects already in the store by their object IDs.

        Examples:
          cdstore export --output graph.json --store app.sqlite
          cdstore import graph.json --store copy.sqlite --model App.xcdatamodeld
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The export to read: a .json graph document or .ndjson (default: standard input).",
                                 valueName: "file"))
    var file: String?

    @Flag(name: .long, help: "No progress line (it is shown only on a terminal anyway).")
    var quiet = false

    func run() throws {
        // The library's call, as a Swift user makes it; standard input is the file `/dev/stdin`, read as a stream.
        let url = URL(fileURLWithPath: file ?? "/dev/stdin")
        let progress = Progress("importing", quiet: quiet)
        defer { progress.finish() }
        let count = try storeOptions.withStore { store in
            try store.write { ctx in try ctx.importGraph(from: url, progress: progress.update) }
        }
        print("imported \(count) \(count == 1 ? "object" : "objects")")
    }
}
