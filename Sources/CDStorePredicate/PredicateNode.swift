/// A parsed predicate: the tree an `NSPredicate` format string describes.
///
/// This is the contract between the parser and the layers that compile predicates (to SQL) or evaluate them
/// (in memory). Parsing normalises spellings: `SOME` becomes `.any`, `=` becomes `.equal`, `=<` becomes
/// `.lessThanOrEqual`, and so on, so consumers see one case per meaning.
package indirect enum PredicateNode: Equatable, Sendable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// `NOT p` / `! p`.
    case not(PredicateNode)
    /// `a AND b AND …` (`&&`), with two or more operands. A chain is one node; a parenthesised AND inside
    /// an AND stays nested, so printing and re-parsing gives the same tree.
    case and([PredicateNode])
    /// `a OR b OR …` (`||`), with two or more operands, kept like `.and`.
    case or([PredicateNode])
    /// A comparison such as `ANY tags.name ==[c] "x"`.
    case comparison(PredicateComparison)
}

/// One comparison: `[modifier] left operator[options] right`.
package struct PredicateComparison: Equatable, Sendable {
    /// `ANY`/`SOME`, `ALL`, `NONE` or none of them.
    package var modifier: ComparisonModifier
    /// The left operand.
    package var left: ExpressionNode
    /// The operator.
    package var op: ComparisonOperator
    /// The right operand. For `.between` it is the `{low, high}` pair.
    package var right: ExpressionNode
    /// The `[cdnl]` options written after the operator.
    package var options: ComparisonOptions

    /// Creates a comparison.
    package init(
        modifier: ComparisonModifier = .direct, left: ExpressionNode, op: ComparisonOperator,
        right: ExpressionNode, options: ComparisonOptions = []
    ) {
        self.modifier = modifier
        self.left = left
        self.op = op
        self.right = right
        self.options = options
    }
}

/// The quantifier in front of a comparison.
package enum ComparisonModifier: String, Equatable, Sendable, CaseIterable {
    /// No quantifier: compare the two values directly.
    case direct
    /// `ANY` or `SOME`: true if some element of the left collection satisfies the comparison.
    case any
    /// `ALL`: true if every element satisfies it (true for an empty collection).
    case all
    /// `NONE`: true if no element satisfies it; the same as `NOT (ANY …)`.
    case none
}

/// A comparison operator, one case per meaning.
package enum ComparisonOperator: String, Equatable, Sendable, CaseIterable {
    /// `=` or `==`.
    case equal
    /// `!=` or `<>`.
    case notEqual
    /// `<`.
    case lessThan
    /// `<=` or `=<`.
    case lessThanOrEqual
    /// `>`.
    case greaterThan
    /// `>=` or `=>`.
    case greaterThanOrEqual
    /// `BETWEEN {low, high}`, inclusive at both ends.
    case between
    /// `IN`: the left value is an element of the right collection, or a substring of the right string.
    case `in`
    /// `CONTAINS`: the left string contains the right one, or the left collection contains the right value.
    case contains
    /// `BEGINSWITH`.
    case beginsWith
    /// `ENDSWITH`.
    case endsWith
    /// `LIKE`: whole-string match where `*` is any run of characters and `?` is one character.
    case like
    /// `MATCHES`: whole-string ICU regular expression match.
    case matches
    /// `UTI-CONFORMS-TO`.
    case utiConformsTo
    /// `UTI-EQUALS`.
    case utiEquals

    /// The spelling Foundation's `predicateFormat` uses for this operator.
    package var symbol: String {
        switch self {
        case .equal: return "=="
        case .notEqual: return "!="
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        case .between: return "BETWEEN"
        case .in: return "IN"
        case .contains: return "CONTAINS"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .like: return "LIKE"
        case .matches: return "MATCHES"
        case .utiConformsTo: return "UTI-CONFORMS-TO"
        case .utiEquals: return "UTI-EQUALS"
        }
    }

    /// True for the operators that work on strings and honour `[c]` and `[d]`.
    package var isStringOperator: Bool {
        switch self {
        case .contains, .beginsWith, .endsWith, .like, .matches: return true
        default: return false
        }
    }
}

/// The `[c]`, `[d]`, `[n]`, `[l]` options of a comparison.
public struct ComparisonOptions: OptionSet, Equatable, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates options from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: compare with Unicode case folding.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1 << 0)
    /// `[d]`: ignore diacritics (combining marks after canonical decomposition).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 1 << 1)
    /// `[n]`: the operands are already normalised. Foundation uses it as a speed hint; it does not change
    /// results here.
    public static let normalized = ComparisonOptions(rawValue: 1 << 2)
    /// `[l]`: locale-sensitive comparison. Accepted and kept; the evaluator compares locale-independently.
    public static let localeSensitive = ComparisonOptions(rawValue: 1 << 3)

    /// The option letters in the order `c d n l`, e.g. `"cd"`; empty when no option is set.
    package var letters: String {
        var s = ""
        if contains(.caseInsensitive) { s += "c" }
        if contains(.diacriticInsensitive) { s += "d" }
        if contains(.normalized) { s += "n" }
        if contains(.localeSensitive) { s += "l" }
        return s
    }
}
