import CDStorePredicate

/// Parses predicates in store tests, turning the parser's typed error into a plain throw.
enum PredicateParserShim {
    static func parse(_ text: String, _ arguments: [FormatArgument] = []) throws -> PredicateNode {
        try PredicateParser.parse(text, arguments: arguments)
    }
}
