import CDStoreJSON
import CDStoreModel
/// An error from opening, reading or writing a store, with the entity, attribute and record concerned.
///
/// `description` is one line, e.g.
/// `record 3 (line 3): entity 'Person', attribute 'age': 70000 is out of range for Integer 16`.
package struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the CLI maps it to an exit status.
    package enum Code: String, Sendable {
        /// A value, record or request that does not fit the model (exit status 1).
        case invalidInput
        /// The entity or property named does not exist in the model.
        case unknownName
        /// The store file cannot be opened or is not a Core Data SQLite store.
        case cannotOpen
        /// The store was made with a different model (Core Data error 134100).
        case modelMismatch
        /// No model was given and the store carries none (Core Data error 134130).
        case noModel
        /// A write into a store read with a model inferred from its tables (no model given, none in the store):
        /// writing needs the real model.
        case modelInferred
        /// A uniqueness constraint would be broken.
        case constraintViolation
        /// The store is read-only.
        case readOnly
        /// Another process held the store's lock for longer than the busy timeout (SQLITE_BUSY).
        case busy
        /// The disk (or the file system's quota) is full (SQLITE_FULL); the write was rolled back.
        case diskFull
        /// The command was interrupted (``Store/interrupt()``, Ctrl-C in the REPL); a write was rolled back.
        case interrupted
        /// SQLite reported an error.
        case sqlite
    }

    /// What kind of failure this is.
    package var code: Code
    /// What went wrong, in a sentence without the location.
    package var message: String
    /// The entity concerned.
    package var entity: String?
    /// The attribute or relationship concerned.
    package var property: String?
    /// Whether ``property`` is a relationship (the description says "relationship" instead of "attribute").
    package var isRelationship = false
    /// Which input record (1-based), when the error concerns one.
    package var record: Int?
    /// The input line of the record (NDJSON, CSV), when known.
    package var line: Int?
    /// The number Core Data gives the same failure (`NSCocoaErrorDomain`), when this error says which: 1570 a
    /// required value is missing, 1580/1590 too few/many related objects, 1600 a Deny rule refused a delete,
    /// 1610–1680 a value breaks a rule of its attribute (1550 for other rules), 133021 a uniqueness constraint.
    /// Kinds that have one number whatever the failure start with it (``Code/modelMismatch`` 134100,
    /// ``Code/noModel`` 134130, ``Code/constraintViolation`` 133021, ``Code/sqlite`` 134180); nil when the error
    /// does not say.
    package var coreDataCode: Int?
    /// Which input of the call the error is about, when one is (the predicate, the sort keys, the grouping, the
    /// model): data rather than words, so that the message names no option and each front end names its own.
    package var input: ErrorInput?

    /// Creates an error.
    package init(_ code: Code, _ message: String, entity: String? = nil, property: String? = nil,
                record: Int? = nil, line: Int? = nil) {
        self.code = code
        self.message = message
        self.entity = entity
        self.property = property
        self.record = record
        self.line = line
        coreDataCode = switch code {
        case .modelMismatch: 134100
        case .noModel: 134130
        case .constraintViolation: 133021
        case .sqlite: 134180
        default: nil
        }
    }

    /// The same error, with Core Data's number for it (see ``coreDataCode``).
    package func coreData(_ number: Int) -> StoreError {
        var copy = self
        copy.coreDataCode = number
        return copy
    }

    /// The same error, about `input` (see ``input``).
    package func about(_ input: ErrorInput) -> StoreError {
        var copy = self
        copy.input = input
        return copy
    }

    /// The same error, about a relationship.
    package func aboutRelationship() -> StoreError {
        var copy = self
        copy.isRelationship = true
        return copy
    }

    /// The same error, located at an input record.
    package func at(record: Int?, line: Int?) -> StoreError {
        var copy = self
        copy.record = copy.record ?? record
        copy.line = copy.line ?? line
        return copy
    }

    package var description: String { describing(inputAs: input?.label) }

    /// The description with `name` for the input (``ErrorInput/label``, or a command line's flag) between the
    /// place and the message: `record 2: entity 'Person': grouping: …`.
    package func describing(inputAs name: String?) -> String {
        var text = ErrorDescription(message)
        text.record = record
        text.line = line
        text.entity = entity
        text.property = property
        text.propertyKind = isRelationship ? "relationship" : "attribute"
        text.inputName = name
        return text.text
    }
}
