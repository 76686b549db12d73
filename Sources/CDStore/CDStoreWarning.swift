import CDStoreModel
import CDStoreEngine

/// Something worth knowing that did not stop a store from opening or a model from loading: a migration done, an
/// older model version read with, a stale model cache, a model inferred from the tables.
///
/// Typed like ``CDStoreError``: ``code`` says what happened, ``input`` which input of the call it is about, so that a
/// front end can say which of its own options to change (`--model`) without rewording ``message``.
public struct CDStoreWarning: Sendable, Equatable, CustomStringConvertible {
    /// What kind of warning this is.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The name of the code, e.g. `migrated`.
        public let rawValue: String
        /// A code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The store was saved with another version of the given model, and was read with that version.
        public static let readWithOlderVersion = Code(rawValue: "readWithOlderVersion")
        /// The store was migrated to the given model as it opened.
        public static let migrated = Code(rawValue: "migrated")
        /// The store's metadata cannot be read, so its model was not checked against the one given.
        public static let metadataUnreadable = Code(rawValue: "metadataUnreadable")
        /// The store carries no model and none was given: one was inferred from its tables. Reading works; writing
        /// needs the model (``CDStoreWarning/input`` is `CDStoreError.Input.model`), which ``CDStoreWarning/message``
        /// leaves for the caller to name.
        public static let modelInferred = Code(rawValue: "modelInferred")
        /// The model cached in the store does not match its version hashes; it was used anyway.
        public static let staleModelCache = Code(rawValue: "staleModelCache")
        /// Reading a model skipped or guessed something (the message names the file and line).
        public static let modelFileSkipped = Code(rawValue: "modelFileSkipped")
        /// A new store's model cache (`Z_MODELCACHE`) could not hold all of the model, or none of it (the model is
        /// then kept as cdstore's JSON model in the metadata).
        public static let modelCacheIncomplete = Code(rawValue: "modelCacheIncomplete")
        /// A Binary value's external-data file is missing and was read as nil.
        public static let missingExternalData = Code(rawValue: "missingExternalData")
    }

    /// What kind of warning this is.
    public var code: Code
    /// What happened, in a sentence.
    public var message: String
    /// The input of the call the warning is about, when one is.
    public var input: CDStoreError.Input?

    init(_ code: Code, _ message: String, input: CDStoreError.Input? = nil) {
        self.code = code
        self.message = message
        self.input = input
    }

    init(_ warning: StoreWarning) {
        self.init(Code(rawValue: warning.code.rawValue), warning.message, input: warning.input)
    }

    /// The message, and for ``Code/modelInferred`` that writing needs a model (a command line names its own option
    /// for ``input`` instead).
    public var description: String { code == .modelInferred ? message + ", writing needs a model" : message }
}
