import CDStoreIO
import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import CDStoreSQLite
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
            return CDStoreError(.invalidInput, error.message, record: error.record, line: error.line)
        case let error as ByteStream.ReadError: return CDStoreError(.cannotOpen, error.description)
        case let error as JSONSyntaxError:
            return CDStoreError(.invalidInput, error.message, line: error.line, column: error.column)
        case let error as DecodingError: return CDStoreError(decoding: error)
        case let error as EncodingError: return CDStoreError(encoding: error)
        default: return error
        }
    }

    /// Runs `body`, converting the errors of the layers below.
    static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw converting(error)
        }
    }

    /// A store error, with Core Data's number where the store says it or its kind implies it.
    init(_ error: StoreError) {
        let number = error.coreDataCode ?? Self.numberInMessage(error.message) ?? Self.defaultNumber(error.code)
        let code: Code
        switch error.code {
        case .invalidInput:
            switch number ?? 0 {
            case 1570: code = .missingValue
            case 1600: code = .deleteDenied
            case 1550...1690: code = .validation
            default:
                code = error.message.hasPrefix("predicate") || error.message.hasPrefix("variable $") ? .invalidPredicate
                    : .invalidInput
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
    }

    /// A model-loading error, with its file, line and column.
    init(_ error: ModelError) {
        self.init(error.code == .fileNotFound ? .cannotOpen : .invalidModel, error.message, entity: error.entity,
                  property: error.property, line: error.line, column: error.column, file: error.file)
    }

    /// A predicate that cannot be read, with the column of the problem.
    init(_ error: CDPredicateError) {
        self.init(.invalidPredicate, "predicate: " + error.message, column: error.column)
    }

    /// Parses a predicate with `body`, turning its syntax errors into errors that carry the predicate text, line
    /// and column (so ``description`` can point at the problem).
    package static func parsingPredicate<T>(_ text: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CDPredicateError {
            var converted = CDStoreError(error)
            converted.input = .predicate
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

    /// The Core Data error number a message quotes ("… (Core Data error 134190): …").
    private static func numberInMessage(_ message: String) -> Int? {
        guard let range = message.range(of: "Core Data error ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    private static func defaultNumber(_ code: StoreError.Code) -> Int? {
        switch code {
        case .modelMismatch: 134100
        case .noModel: 134130
        case .constraintViolation: 133021
        case .sqlite: 134180
        default: nil
        }
    }
}
