import CDStoreModel
import CDStorePredicate
import CDStoreEngine

extension Criteria {
    /// Criteria from predicate text whose `%@` arguments and `$variable` values are text too, as a command line
    /// gives them (`--where`, `--arg`, `--var NAME=VALUE`): each is typed by the attribute it meets, as a
    /// `KEY=VALUE` value of an insert is. Nil text selects every object.
    ///
    /// Errors are the library's: about `input` (the predicate selecting objects, or a projection's filter on
    /// groups), with the text and a caret under the column; a variable left without a value is about
    /// `CDStoreError.Input.variables`.
    ///
    /// ```swift
    /// let criteria = try Criteria(parsing: "hiredAt > %@ AND department.name == $dept", textArguments: ["2020-01-01"],
    ///                             variables: [("dept", "R&D")])
    /// ```
    public init(parsing format: String?, textArguments: [String] = [], variables: [(name: String, value: String)] = [],
                about input: CDStoreError.Input = .predicate) throws {
        guard let format else {
            self.init()
            return
        }
        self.init(predicate: try CDStoreError.parsingPredicate(format, input: input) {
            let predicate = try PredicateParser.parse(format, arguments: textArguments.map { .text($0) })
            // Without variables given or named, the tree is used as parsed (substitution walks all of it).
            guard !variables.isEmpty || format.contains("$") else { return predicate }
            var bindings: [String: PredicateValue] = [:]
            for (name, value) in variables { bindings[name] = .string(value) }
            return try predicate.substituting(variables: bindings)
        })
    }
}
