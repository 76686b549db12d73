import CDStoreIO
import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import CDStoreEngine
import Foundation

extension CDStoreError {
    /// The library's error for any error of the layers below (``StoreError``, ``ModelError``,
    /// ``CDPredicateError``) or of Swift's coding; other errors (the caller's own, thrown from a transaction
    /// body) are not converted and pass through unchanged.
    package static func converting(_ error: any Error) -> any Error {
        switch error {
        case let error as CDStoreError: return error
        case let error as StoreError: return CDStoreError(error)
        case let error as ModelError: return CDStoreError(error)
        case let error as CDPredicateError: return CDStoreError(error)
        case let error as RecordInput.InputError:
            var converted = CDStoreError(.invalidInput, error.message, record: error.record, line: error.line)
            converted.input = error.input
            return converted
        case let error as ByteStream.ReadError:
            // A data file, not a store (``Code/cannotOpen`` is about stores): bad input, as seed has it.
            var converted = CDStoreError(.invalidInput, error.description)
            converted.input = .recordFile
            return converted
        case let error as JSONSyntaxError:
            return CDStoreError(.invalidInput, error.message, line: error.line, column: error.column)
        case let error as DecodingError: return CDStoreError(decoding: error)
        case let error as EncodingError: return CDStoreError(encoding: error)
        default: return error
        }
    }

    /// Runs `body`, converting the errors of the layers below (also for `CDStoreSwiftData`).
    package static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw converting(error)
        }
    }

    /// A store error, with Core Data's number where the store says it or its kind implies it.
    init(_ error: StoreError) {
        let number = error.coreDataCode
        let code: Code
        switch error.code {
        case .invalidInput:
            switch number ?? 0 {
            case 1570: code = .missingValue
            case 1600: code = .deleteDenied
            case 1550...1690: code = .validation
            default:
                code = error.input == .predicate || error.input == .variables ? .invalidPredicate : .invalidInput
            }
        case .unknownName: code = .unknownName
        case .cannotOpen: code = .cannotOpen
        case .modelMismatch: code = .modelMismatch
        case .noModel, .modelInferred: code = .noModel
        case .constraintViolation: code = .constraintViolation
        case .readOnly: code = .readOnly
        case .busy: code = .busy
        case .diskFull: code = .diskFull
        case .interrupted: code = .interrupted
        case .sqlite: code = .sqlite
        }
        self.init(code, error.message, coreDataCode: number, entity: error.entity, property: error.property,
                  isRelationship: error.isRelationship, record: error.record, line: error.line)
        input = error.input
    }

    /// A model-loading error, with its file, line and column.
    init(_ error: ModelError) {
        let code: Code = switch error.code {
        case .fileNotFound: .cannotOpen
        case .swiftSourcesNeedReader: .swiftDataUnavailable
        default: .invalidModel
        }
        self.init(code, error.message, entity: error.entity, property: error.property,
                  isRelationship: error.isRelationship, line: error.line, column: error.column, file: error.file)
        input = error.input
    }

    /// A predicate that cannot be read, with the column of the problem: about the predicate, or about its
    /// variables when one has no value.
    init(_ error: CDPredicateError) {
        self.init(.invalidPredicate, error.message, column: error.column)
        input = error.code == .unboundVariable ? .variables : .predicate
    }

    /// Parses a predicate with `body`, turning its syntax errors into errors that carry the predicate text, line
    /// and column (so ``description`` can point at the problem). `input` is the input the text is (the predicate
    /// selecting objects, or a projection's filter on groups).
    package static func parsingPredicate<T>(_ text: String, input: Input = .predicate, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CDPredicateError {
            var converted = CDStoreError(error)
            if converted.input == .predicate { converted.input = input }
            if converted.column != nil {
                converted.line = 1
                converted.source = text
            }
            throw converted
        } catch {
            throw converting(error)
        }
    }

    /// A Decodable type that does not fit the fetched object.
    init(decoding error: DecodingError) {
        let (message, path): (String, [any CodingKey]) = switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            (context.debugDescription, context.codingPath)
        @unknown default:
            (String(describing: error), [])
        }
        self.init(.coding, message, property: path.first?.stringValue)
    }

    /// An Encodable value that cannot be written as a record.
    init(encoding error: EncodingError) {
        switch error {
        case .invalidValue(_, let context):
            self.init(.coding, context.debugDescription, property: context.codingPath.first?.stringValue)
        @unknown default:
            self.init(.coding, String(describing: error))
        }
    }

    /// `error`'s description with its input (``input``) named `name(input)` instead of by the library's label: a
    /// command line's option (`--group-by`), so that it says which option to fix without editing the text. Nil
    /// for an error that is not the library's or its layers'.
    package static func describing(_ error: any Error, inputAs name: (Input) -> String?) -> String? {
        switch error {
        case let error as CDStoreError: error.describing(inputAs: error.input.flatMap(name))
        case let error as StoreError: error.describing(inputAs: error.input.flatMap(name))
        case let error as ModelError: error.describing(inputAs: error.input.flatMap(name))
        case let error as RecordInput.InputError: error.describing(inputAs: error.input.flatMap(name))
        default: nil
        }
    }
}
