import ArgumentParser
import CDStore

/// `cdstore project ENTITY --properties …`: dictionary fetches — chosen values, functions, grouping.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Print chosen properties and aggregates of an entity's objects, per object or per group.",
        discussion: """
        Core Data's dictionary fetches (propertiesToFetch, NSExpressionDescription, propertiesToGroupBy, \
        havingPredicate, returnsDistinctResults), computed by one SQL query.

        A property is an attribute (age), a to-one key path (department.name), a to-many aggregate per object \
        (employees.@count, employees.@sum.salary), an expression (salary * 12), or a function of one in Core \
        Data's spelling or the compact form: sum:(salary) = sum:salary, average:, count:, min:, max:, median:, \
        stddev:, lowercase:, uppercase:. "AS alias" renames the result key; otherwise the key is the property \
        as written, or function:property (sum:salary).

        Types follow the model: dates print as dates, sums of integers are integers, sums of Decimals are exact \
        (each stored REAL read as its shortest decimal, added as decimals, rounded once), counts are integers, \
        averages, medians and standard deviations are Doubles. median: is exact (the middle value, or the mean \
        of the two middle values); stddev: is the population standard deviation (divide by n).

        Without --group-by, aggregates fold all matching objects into one result and cannot be mixed with \
        per-object values; with it, every property that is not an aggregate must be grouped. --having filters \
        groups: it names result keys, grouped key paths, or functions such as sum:(salary). --sort takes result \
        keys (-total, sum:salary) or properties.

        Examples:
          cdstore project Employee --properties name,department.name --where "age > 30"
          cdstore project Employee --properties 'department.name,count:id,sum:salary AS total' \\
              --group-by department.name --having 'count:(id) > 1' --sort -total
          cdstore project Employee --properties 'min:joined,max:age,average:salary,median:salary,stddev:salary'
          cdstore project Department --properties name,employees.@count,employees.@sum.salary
          cdstore project Employee --properties lowercase:name --distinct
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var query: QueryOptions
    @OptionGroup var formatOptions: FormatOptions

    @Argument(help: "The entity whose objects to project.", completion: .custom(ShellCompletion.entities))
    var entity: String

    @Option(name: .long, help: ArgumentHelp(
        "The values of each result, comma-separated (repeatable): attributes, key paths, FUNCTION:PROPERTY, each with an optional 'AS alias'.",
        valueName: "list"), completion: .custom(ShellCompletion.keyPaths))
    var properties: [String] = []

    @Option(name: .customLong("group-by"), help: ArgumentHelp(
        "Group the objects by these key paths (or result keys), comma-separated (repeatable).", valueName: "list"), completion: .custom(ShellCompletion.keyPaths))
    var groupBy: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Only groups matching this predicate, e.g. \"count:(id) > 1 AND total > 1000\" (needs --group-by).", valueName: "predicate"))
    var having: String?

    @Flag(name: .long, help: "Leave out duplicate results.")
    var distinct = false

    func validate() throws {
        if properties.isEmpty { throw ValidationError("say what to print: --properties name,sum:salary,…") }
        if having != nil && groupBy.isEmpty {
            throw ValidationError("--having needs --group-by: it filters groups (use --where to filter objects)")
        }
    }

    func run() throws {
        let criteria = try query.criteria()
        let havingCriteria = try having.map {
            try PredicateOptions.criteria($0, arguments: [], variables: query.filter.variables, input: .having)
        }
        let format = formatOptions.resolved
        try storeOptions.withStore(create: false, readsOnly: true) { store in
            var writer: (any RecordWriter)?
            try store.read { ctx in
                try ctx.forEachProjection(entity, properties, matching: criteria, groupBy: groupBy,
                                          having: havingCriteria, distinct: distinct, columns: { keys in
                    writer = format.writer(columns: keys, output: .standardOutput(), headers: !formatOptions.noHeaders)
                }) { row in
                    let fields = Array(zip(row.resultKeys, row.values))
                    writer?.write(format.isForReading ? fields.map { ($0.0, RecordPrinter.short($0.1)) } : fields)
                }
            }
            writer?.finish()
        }
    }
}
