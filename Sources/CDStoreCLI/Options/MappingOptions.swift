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
    /// --strict or --ignore-unknown for keys that name no property.
    func applied(to options: InsertOptions) -> InsertOptions {
        var options = options
        options.usesModelKeyMapping = !noMapping
        options.keyMappingFile = map.map { URL(fileURLWithPath: $0) }
        options.unknownKeys = strict ? .refused : ignoreUnknown ? .ignored : .ignoredUnderMapping
        return options
    }

    /// Says on stderr, once per entity, which keys were ignored.
    static func report(_ summary: InsertSummary) {
        for ignored in summary.ignoredKeys { Console.note(ignored.description) }
    }
}
