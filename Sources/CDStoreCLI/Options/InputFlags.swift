import CDStore

/// The one table from the library's inputs (``CDStoreError/Input``) to this command line's options: an error
/// about the grouping is printed `error: --group-by: …`. The library's messages name no option, so nothing here
/// edits their text; it only says which flag to fix, where the library's description has its own label.
enum InputFlags {
    /// The option for `input`; nil where no single option is it (a record file is named in the message).
    static func flag(for input: CDStoreError.Input) -> String? {
        switch input {
        case .predicate: "--where"
        case .variables: "--var"
        case .sort: "--sort"
        case .limit: "--limit"
        case .offset: "--offset"
        case .properties: "--properties"
        case .groupBy: "--group-by"
        case .having: "--having"
        case .includes: "--include"
        case .model: "--model"
        case .modelVersion: "--model-version"
        case .migration: "--no-migrate"
        case .busyTimeout: "--busy-timeout"
        case .root: "--root"
        case .mapping: "--map"
        case .assignments: "--set"
        case .comparedEntities: "--entity"
        case .matchKeys: "--key"
        case .ignoredProperties: "--ignore"
        case .recordFile: nil
        }
    }

    /// What `error:` says for an error of the library or its layers, with the option in place of the library's
    /// label for the input; nil for other errors. `modelFlag` names the option that gave the model where it was not
    /// `--model` (`diff`'s `--model-a`, `--model-b`).
    static func message(of error: any Error, modelFlag: String? = nil) -> String? {
        guard let error = error as? CDStoreError else { return nil }
        let name = error.input.flatMap { input in input == .model && modelFlag != nil ? modelFlag : flag(for: input) }
        return error.describing(inputAs: name)
    }

    /// A line after the error naming the option that would have avoided it, where the error's kind says which:
    /// a record whose uniqueness constraint another object already holds merges into that object with
    /// `insert --upsert`. Nil for every other error.
    static func hint(for error: any Error) -> String? {
        guard let error = error as? CDStoreError, error.code == .constraintViolation,
              error.record != nil else { return nil }
        return "--upsert merges a record into the object that has its unique values"
    }
}
