/// One problem ``ModelValidator`` found in a model, with where it is.
///
/// `description` is one line, in the form compilers and ``ModelError`` use, e.g.
/// `Model.xcdatamodeld/Model.xcdatamodel/contents:14:9: entity 'Person', property 'age': default 'abc' is not a valid Integer 16`;
/// warnings say `warning: ` before the subject.
public struct ModelIssue: Sendable, Equatable, CustomStringConvertible {
    /// How serious an issue is.
    public enum Severity: String, Sendable {
        /// Core Data (or Xcode) refuses the model, or it cannot work as written.
        case error
        /// Accepted by Xcode but probably not what was meant (for example a default Core Data silently converts).
        case warning
    }

    /// Which rule found the issue, for code that wants to react to one kind.
    public enum Rule: String, Sendable, CaseIterable {
        case emptyName
        case invalidName
        case duplicateEntity
        case unknownParent
        case inheritanceCycle
        case duplicateProperty
        case reservedName
        case invalidDefault
        case invalidLimit
        case minGreaterThanMax
        case invalidRegularExpression
        case unknownDestination
        case unknownInverse
        case inverseMismatch
        case invalidCount
        case unknownPropertyInConstraint
        case unknownPropertyInIndex
        case unknownEntityReference
    }

    /// Error or warning.
    public var severity: Severity
    /// The rule that found it.
    public var rule: Rule
    /// What is wrong, in a sentence without the location.
    public var message: String
    /// The model file.
    public var file: String?
    /// The 1-based line of the entity or property in `file`, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// The entity concerned, if any.
    public var entity: String?
    /// The property concerned, if any.
    public var property: String?

    /// Creates an issue.
    package init(_ severity: Severity, _ rule: Rule, _ message: String, file: String? = nil, line: Int? = nil,
                column: Int? = nil, entity: String? = nil, property: String? = nil) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.entity = entity
        self.property = property
    }

    /// One line, as compilers print problems: `file:line:column: [warning: ]entity 'E', property 'p': message`.
    public var description: String {
        ModelPlace.location(file: file, line: line, column: column) + (severity == .warning ? "warning: " : "")
            + ModelPlace.subject(entity: entity, property: property) + message
    }
}
