import CDStoreModel

/// Something worth knowing that did not stop a store from opening or a command from running: typed, with the
/// input it concerns, so that a front end can name its own option (`--model`) instead of the library's words.
package struct StoreWarning: Sendable, Equatable, CustomStringConvertible {
    /// What kind of warning this is.
    package enum Code: String, Sendable {
        /// The store was saved with another version of the given model and was read with that version.
        case readWithOlderVersion
        /// The store was migrated to the given model as it opened.
        case migrated
        /// The store's metadata plist is NULL: its model cannot be checked against the one given.
        case metadataUnreadable
        /// The store carries no usable model and none was given: one was inferred from the tables. Reading works;
        /// writing needs the model (``input`` is ``ErrorInput/model``).
        case modelInferred
        /// The model in `Z_MODELCACHE` does not match the store's version hashes; it was used anyway.
        case staleModelCache
        /// Reading a model file or cache skipped or guessed something.
        case modelFileSkipped
        /// A new store's model cache (`Z_MODELCACHE`) could not hold all of the model (or none of it, and the model
        /// was kept as cdstore's JSON model instead).
        case modelCacheIncomplete
    }

    /// What kind of warning this is.
    package var code: Code
    /// What happened, in a sentence.
    package var message: String
    /// The input the warning is about, when one is (the model, for ``Code/modelInferred``).
    package var input: ErrorInput?

    /// Creates a warning.
    package init(_ code: Code, _ message: String, input: ErrorInput? = nil) {
        self.code = code
        self.message = message
        self.input = input
    }

    /// The message, and for ``Code/modelInferred`` what writing needs, in the library's words.
    package var description: String { code == .modelInferred ? message + ", writing needs a model" : message }
}
