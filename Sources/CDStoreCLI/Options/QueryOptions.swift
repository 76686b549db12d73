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

    /// The library's criteria for `--where` (every object without it), sub-entities or not.
    func criteria(includingSubentities: Bool = true) throws -> Criteria {
        let criteria = try Self.criteria(predicate, arguments: arguments, variables: variables)
        return includingSubentities ? criteria : criteria.excludingSubentities()
    }

    /// The library's criteria for predicate text with `--arg` values and `--var NAME=VALUE` assignments; `input`
    /// is the input the text is, for errors (`--having` is a predicate too).
    static func criteria(_ text: String?, arguments: [String], variables: [String],
                         input: CDStoreError.Input = .predicate) throws -> Criteria {
        let bindings = try variables.map { assignment -> (name: String, value: String) in
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw CLIError.usage("--var takes NAME=VALUE, got '\(assignment)'")
            }
            return (String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
        }
        return try Criteria(parsing: text, textArguments: arguments, variables: bindings, about: input)
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

    /// The library's criteria these options describe: filter, order, window, sub-entities or not.
    func criteria() throws -> Criteria {
        try filter.criteria(includingSubentities: !exactEntity).sorted(by: sort).limit(limit, offset: offset)
    }
}
