import ArgumentParser
import CDStoreSQLite
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

    func run() throws {
        let text: String
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else { throw CLIError.input("cannot read \(file)") }
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        let document = try GraphDocumentReader.read(text)
        let count = try storeOptions.withStore { store in try store.importGraph(document) }
        print("imported \(count) \(count == 1 ? "object" : "objects")")
    }
}

/// Reads the two shapes `export` writes: the JSON graph document, and NDJSON lines with `_entity`.
enum GraphDocumentReader {
    static func read(_ text: String) throws -> GraphDocument {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("[") {
            // What `export ENTITY` writes: the objects of one entity, which `insert` reads.
            throw CLIError.input("a JSON array is not a graph document (`export` with one entity writes an array); "
                                 + "insert it with `cdstore insert ENTITY --file FILE`, or export the whole graph")
        }
        if trimmed.hasPrefix("{") && !trimmed.contains("\n{") || trimmed.hasPrefix("{\"format\"") {
            if let document = try? JSONReader.parse(text), case .object(let fields) = document,
               fields.contains(where: { $0.0 == "format" }) {
                return try graph(fields)
            }
        }
        var groups: [(entity: String, records: [InputRecord])] = []
        for record in try RecordInput.records(from: text, format: .ndjson) {
            guard let entity = record.entityName else {
                throw CLIError.input((record.line.map { "line \($0): " } ?? "") + "each line needs \"_entity\"")
            }
            if let index = groups.firstIndex(where: { $0.entity == entity }) {
                groups[index].records.append(record)
            } else {
                groups.append((entity, [record]))
            }
        }
        return GraphDocument(entities: groups)
    }

    private static func graph(_ fields: [(String, InputValue)]) throws -> GraphDocument {
        guard case .string("cdstore-graph")? = fields.first(where: { $0.0 == "format" })?.1 else {
            throw CLIError.input("not a cdstore graph document (\"format\" must be \"cdstore-graph\")")
        }
        guard case .object(let entities)? = fields.first(where: { $0.0 == "entities" })?.1 else {
            throw CLIError.input("the graph document has no \"entities\" object")
        }
        return GraphDocument(entities: try entities.map { name, value in
            guard case .array(let items) = value else { throw CLIError.input("\"\(name)\" must be an array of objects") }
            return (name, try items.enumerated().map { index, item in
                guard case .object(let record) = item else {
                    throw CLIError.input("\(name) object \(index + 1) is not a JSON object")
                }
                return InputRecord(fields: record.filter { $0.0 != "_entity" })
            })
        })
    }
}
