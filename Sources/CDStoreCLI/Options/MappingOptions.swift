import ArgumentParser
import CDStore
import Foundation

/// How JSON that an app or an API wrote maps onto the model: `--map`, `--no-mapping`, `--root`,
/// `--ignore-unknown` and `--strict`, shared by `insert` and `seed`.
struct MappingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A JSON file mapping API keys to the model: {\"Entity\": {\"keys\": {\"property\": \"json.key.path\"}, "
        + "\"identity\": [\"attr\"], \"relatedBy\": {\"relationship\": \"attr\"}}} (README: \"Seeding from your app's JSON\").",
        valueName: "path"), completion: .file(extensions: ["json"]))
    var map: String?

    @Flag(name: .customLong("no-mapping"), help: "Ignore the JSON mapping in the model's user info; keys are property names.")
    var noMapping = false

    @Option(name: .long, help: ArgumentHelp(
        "Where the records are inside a JSON document: the key path of their array (or of one object), e.g. "
        + "response.venues for {\"meta\": …, \"response\": {\"venues\": […]}}.", valueName: "keypath"))
    var root: String?

    @Flag(name: .customLong("ignore-unknown"), help: ArgumentHelp(
        "Ignore input keys that name no property even without a mapping (with a mapping they are ignored anyway); "
        + "each entity's ignored keys are listed once on stderr."))
    var ignoreUnknown = false

    @Flag(name: .long, help: "Refuse input keys that name no property even under a mapping.")
    var strict = false

    func validate() throws {
        if ignoreUnknown && strict { throw ValidationError("--ignore-unknown and --strict cannot be used together") }
        if let root, root.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw ValidationError("--root takes a key path such as response.venues")
        }
    }

    /// The key path of the records, split at dots.
    var rootPath: [String] { root.map { $0.split(separator: ".").map(String.init) } ?? [] }

    /// `options` reading keys through the model's own mapping (unless --no-mapping) overridden by --map, with
    /// --strict or --ignore-unknown for keys that name no property. The folders of the map's `"files"` are
    /// relative to `inputFile`'s folder (the current folder for standard input).
    func applied(to options: InsertOptions, model: ManagedObjectModel, inputFile: String?) throws -> InsertOptions {
        let data = try map.map { map in
            guard let data = FileManager.default.contents(atPath: map) else { throw CLIError.input("cannot read \(map)") }
            return data
        }
        let base = inputFile.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return try options.mapping(model, withoutModelMapping: noMapping, mapFile: data, baseDirectory: base,
                                   refusingUnknownKeys: strict, ignoringUnknownKeys: ignoreUnknown)
    }

    /// Says on stderr, once per entity, which keys were ignored.
    static func report(_ summary: InsertSummary) {
        for ignored in summary.ignoredKeys { Console.note(ignored.description) }
    }
}
