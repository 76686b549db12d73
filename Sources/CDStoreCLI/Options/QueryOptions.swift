import ArgumentParser
import CDStore

/// `--where` with its `--arg` and `--var` values: the predicate of every command that selects objects (`fetch`,
/// `project`, `count`, `update`, `delete`), declared once.
struct PredicateOptions: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Only objects matching this NSPredicate, e.g. \"age >= 18 AND name BEGINSWITH[c] 'a'\".", valueName: "predicate"), completion: .custom(ShellCompletion.keyPaths))
    var predicate: String?

    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "A value for the next %@, %K, %d or %f in --where, in order (repeatable).", valueName: "value"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp(
        "A value for a $variable in --where, as NAME=VALUE (repeatable).", valueName: "name=value"))
    var variables: [String] = []

    /// The parsed predicate, nil without `--where`.
    func parsed() throws -> PredicateNode? {
        try PredicateInput.parse(predicate, arguments: arguments, variables: variables)
    }

    /// The library's criteria for `--where` (every object without it), sub-entities or not.
    func criteria(includingSubentities: Bool = true) throws -> Criteria {
        let criteria = Criteria(predicate: try parsed())
        return includingSubentities ? criteria : criteria.excludingSubentities()
    }
}

/// `--where` (with `--arg`/`--var`), `--sort`, `--limit`, `--offset`: what selects objects and in which order.
struct QueryOptions: ParsableArguments {
    @OptionGroup var filter: PredicateOptions

    // `.unconditionalSingleValue` so that `--sort -age` reads "-age" as the key, not as an option.
    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Sort by this attribute; -KEY sorts descending, KEY:ci ignores case. Repeat for more keys.", valueName: "key"), completion: .custom(ShellCompletion.keyPaths))
    var sort: [String] = []

    @Option(name: .long, help: ArgumentHelp("Return at most this many objects.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: ArgumentHelp("Skip this many objects first.", valueName: "n"))
    var offset: Int?

    @Flag(name: .customLong("exact-entity"), help: "Leave out objects of sub-entities.")
    var exactEntity = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    /// The fetch request these options describe for `entity`.
    func request(for entity: String) throws -> ObjectFetchRequest {
        ObjectFetchRequest(entity: entity, predicate: try filter.parsed(),
                     sort: sort.map(SortDescriptor.init(parsing:)), limit: limit, offset: offset,
                     includesSubentities: !exactEntity)
    }
}

/// Parses `--where` text with its `--arg` and `--var` values.
enum PredicateInput {
    /// The predicate; a syntax error is the library's (about `input`, with the text and a caret under the
    /// column), as `Criteria("…")` reports it.
    static func parse(_ text: String?, arguments: [String], variables: [String],
                      input: CDStoreError.Input = .predicate) throws -> PredicateNode? {
        guard let text else { return nil }
        return try CDStoreError.parsingPredicate(text, input: input) {
            var predicate = try PredicateParser.parse(text, arguments: arguments.map { .text($0) })
            if !variables.isEmpty || text.contains("$") {
                var bindings: [String: PredicateValue] = [:]
                for assignment in variables {
                    guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                        throw CLIError.usage("--var takes NAME=VALUE, got '\(assignment)'")
                    }
                    bindings[String(assignment[..<equals])] = .string(String(assignment[assignment.index(after: equals)...]))
                }
                predicate = try predicate.substituting(variables: bindings)
            }
            return predicate
        }
    }
}
