import CDStoreIO
import CDStoreEngine
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import Foundation

/// The one error type of ``CDStore``: what went wrong, Core Data's number for it where Core Data has one, and the
/// entity, property and input record concerned as fields.
///
/// ```swift
/// do {
///     try store.write { ctx in try ctx.insert("Employee", ["firstName": "Ann", "age": 12]) }
/// } catch let error as CDStoreError where error.code == .validation {
///     print(error.entity ?? "", error.property ?? "", error.coreDataCode ?? 0)   // Employee age 1620
/// } catch CDStoreError.Code.constraintViolation {
///     // matched by code alone
/// }
/// ```
///
/// `description` is one line: `entity 'Employee', attribute 'age': 12 is less than the minimum 16`.
///
/// ## Topics
///
/// ### What
/// - ``Code``
/// - ``code``
/// - ``coreDataCode``
/// - ``message``
///
/// ### Where
/// - ``entity``
/// - ``property``
/// - ``isRelationship``
/// - ``record``
/// - ``line``
/// - ``column``
/// - ``file``
/// - ``source``
/// - ``input``
/// - ``Input``
public struct CDStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure an error is: switch on it (`case .busy:`), or catch it with
    /// `catch CDStoreError.Code.busy { … }`.
    ///
    /// A struct of constants rather than an enum, as `Errno` and GRDB's `ResultCode` are: new kinds can be added
    /// without breaking a `switch`, and a constant can be a `catch` pattern.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The name of the code, e.g. `missingValue`.
        public let rawValue: String
        /// A code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name of the code.
        public var description: String { rawValue }

        /// A required attribute or relationship has no value (Core Data's 1570,
        /// `NSValidationMissingMandatoryPropertyError`).
        public static let missingValue = Code(rawValue: "missingValue")
        /// A value breaks a rule of the model: range, length, date bounds, regular expression, or a to-many's
        /// minimum or maximum count (Core Data's 1550 and 1580–1680).
        public static let validation = Code(rawValue: "validation")
        /// A uniqueness constraint would be broken (Core Data's 133021, `NSManagedObjectConstraintMergeError`).
        public static let constraintViolation = Code(rawValue: "constraintViolation")
        /// A Deny delete rule refused a delete (Core Data's 1600, `NSValidationRelationshipDeniedDeleteError`).
        public static let deleteDenied = Code(rawValue: "deleteDenied")
        /// A value that does not fit its attribute's type, a record or request the model does not allow.
        public static let invalidInput = Code(rawValue: "invalidInput")
        /// No entity or property of that name (the message suggests the nearest name).
        public static let unknownName = Code(rawValue: "unknownName")
        /// A predicate that cannot be read or run.
        public static let invalidPredicate = Code(rawValue: "invalidPredicate")
        /// A Decodable type that does not match the fetched objects, or an Encodable value that cannot be stored.
        public static let coding = Code(rawValue: "coding")
        /// The model file cannot be read, or is not a model.
        public static let invalidModel = Code(rawValue: "invalidModel")
        /// The model is SwiftData sources (a `.swift` file or a folder of them) and this program cannot read them: the
        /// Swift source reader lives in the `CDStoreSwiftData` library, so that programs that never read Swift
        /// sources do not carry swift-syntax. `import CDStoreSwiftData` and call `SwiftDataSources.install()` once
        /// before opening stores (`CDStore.Model.swiftData(_:version:schema:)` installs it too). ``file`` is the
        /// path; nothing was read or written.
        public static let swiftDataUnavailable = Code(rawValue: "swiftDataUnavailable")
        /// The store file is missing, unreadable, or not a Core Data SQLite store.
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// The store was saved with another model (Core Data's 134100,
        /// `NSPersistentStoreIncompatibleVersionHashError`) and migration was not asked for, or is impossible.
        public static let modelMismatch = Code(rawValue: "modelMismatch")
        /// No model was given and the store carries none (Core Data's 134130, `NSMigrationMissingSourceModelError`).
        public static let noModel = Code(rawValue: "noModel")
        /// The store is open read-only, or a write was attempted inside ``CDStore/read(_:)``.
        public static let readOnly = Code(rawValue: "readOnly")
        /// Another connection held the store's lock past the busy timeout (SQLite's `SQLITE_BUSY`); nothing was
        /// written.
        public static let busy = Code(rawValue: "busy")
        /// The disk is full; the transaction was rolled back.
        public static let diskFull = Code(rawValue: "diskFull")
        /// ``CDStore/interrupt()`` stopped the statement running; a write was rolled back.
        public static let interrupted = Code(rawValue: "interrupted")
        /// An object, cursor or context used where it no longer can be (after its transaction ended).
        public static let misuse = Code(rawValue: "misuse")
        /// SQLite reported an error (Core Data's 134180, `NSSQLiteError`).
        public static let sqlite = Code(rawValue: "sqlite")
    }

    /// What kind of failure this is.
    public var code: Code
    /// Core Data's number for the same failure (`NSCocoaErrorDomain`), when Core Data has one: 1570, 1550,
    /// 1580–1680, 1600, 133021, 134100, 134110, 134130, 134140, 134180, 134190.
    public var coreDataCode: Int?
    /// What went wrong, in a sentence without the location.
    public var message: String
    /// The entity concerned.
    public var entity: String?
    /// The attribute or relationship concerned.
    public var property: String?
    /// Whether ``property`` is a relationship.
    public var isRelationship: Bool
    /// The input record concerned (1-based), for inserts of several records.
    public var record: Int?
    /// The line of the input (a record's line, a model file's line) when known.
    public var line: Int?
    /// The column in a predicate or model file, when known.
    public var column: Int?
    /// The file concerned: the model file of an ``Code/invalidModel`` error, or the data file a record was read
    /// from.
    public var file: String?
    /// Which input of the call the error is about, when one is: the predicate, the sort keys, the grouping, a
    /// model, the busy timeout. ``message`` never names it; ``description`` puts a short label for it before the
    /// message (`predicate: …`, `grouping: …`), and a command line puts the option it maps the input to there.
    public var input: Input?
    /// Whether ``file`` is a data file (`file: record 2 (line 3): …`) rather than a model file (`file:3:7: …`).
    public var fileIsData = false
    /// The text ``line`` and ``column`` point into when it is not a file: the predicate of an
    /// ``Code/invalidPredicate`` error, which ``description`` shows with a caret under the column.
    public var source: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, coreDataCode: Int? = nil, entity: String? = nil,
                property: String? = nil, isRelationship: Bool = false, record: Int? = nil, line: Int? = nil,
                column: Int? = nil, file: String? = nil) {
        self.code = code
        self.message = message
        self.coreDataCode = coreDataCode
        self.entity = entity
        self.property = property
        self.isRelationship = isRelationship
        self.record = record
        self.line = line
        self.column = column
        self.file = file
    }

    /// One line: where, then what (`record 2 (line 3): entity 'Employee', attribute 'age': …`). A predicate
    /// error adds its column, then the predicate and a caret under the column on two more lines:
    ///
    ///     predicate: unexpected '>' at column 6
    ///       age >>> 3
    ///            ^
    public var description: String { describing(inputAs: input?.label) }

    /// The description with `name` for ``input`` (where ``description`` has the library's label): a command line
    /// passes its option (`--where`), so that the one text says which option to fix.
    public func describing(inputAs name: String?) -> String {
        let named = name.map { $0 + ": " } ?? ""
        if let source, let column, file == nil {
            let lines = CDPredicateError(.unexpectedToken, message, column: column).rendered(in: source).split(separator: "\n")
            return ([named + message + " at column \(column)"] + lines.dropFirst().map(String.init)).joined(separator: "\n")
        }
        var text = ErrorDescription(message)
        text.file = file
        text.fileIsData = fileIsData
        text.record = record
        text.line = line
        text.column = column
        text.entity = entity
        text.property = property
        text.propertyKind = isRelationship ? "relationship" : "attribute"
        text.namesPropertyAlone = true
        text.inputName = name
        return text.text
    }
}

extension CDStoreError {
    /// An input of a library call that an error or warning can be about: the predicate, the sort keys, the grouping,
    /// the model, a record file. Each has one name a command line maps to its option (`.groupBy` is `cdstore project
    /// --group-by`), so messages never name options themselves.
    public typealias Input = CDStoreModel.ErrorInput
}

extension CDStoreError.Code {
    /// Whether `error` is a ``CDStoreError`` with this code: `catch CDStoreError.Code.busy { … }`.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? CDStoreError)?.code == code
    }
}
