import CDStoreJSON
import CDStoreModel
import Foundation
package import GRDB

/// Converts input values to what Core Data keeps in an attribute's column, and stored values back.
///
/// Storage follows coredata-format.md §1.5: integers and booleans as INTEGER, Decimal/Double/Float as REAL
/// (a Float is stored widened to Double, as Core Data does), dates as REAL seconds since 2001-01-01, UUIDs as
/// 16-byte BLOBs, Binary and Transformable as BLOBs, URIs and strings as TEXT. A Binary element that SwiftData
/// fills with a `Codable` collection's JSON (``SwiftDataValue/json``) is given and read as that JSON value.
package enum AttributeCoding {
    /// The value to store for `input` in `attribute`, or an error that says why it does not fit.
    /// Validation rules of the model (range, length, regular expression) are checked by ``AttributeValidation``.
    static func storedValue(_ input: InputValue, for attribute: Attribute) throws -> DatabaseValue {
        if case .null = input { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            let value = try integer(input, attribute)
            guard attribute.type.integerRange!.contains(value) else {
                throw mismatch(attribute, "\(value) is out of range for \(attribute.type.rawValue)")
            }
            return value.databaseValue
        case .boolean:
            return (try boolean(input, attribute) ? 1 : 0).databaseValue
        case .decimal:
            // Core Data keeps NSDecimalNumber.notANumber as the text 'NaN' (seen in real stores), not as a REAL.
            let value = try double(input, attribute)
            return value.isNaN ? "NaN".databaseValue : value.databaseValue
        case .double:
            return try storableDouble(input, attribute).databaseValue
        case .float:
            let value = try storableDouble(input, attribute)
            let narrowed = Float(value)
            if value.isFinite && narrowed.isInfinite {
                throw mismatch(attribute, "\(input.summary) is out of range for Float")
            }
            return Double(narrowed).databaseValue
        case .string:
            guard case .string(let s) = input else { throw mismatch(attribute, "expected a string, got \(input.summary)") }
            return s.databaseValue
        case .uri:
            guard case .string(let s) = input, let url = URL(string: s), url.scheme != nil else {
                throw mismatch(attribute, "expected an absolute URI, got \(input.summary)")
            }
            return url.absoluteString.databaseValue
        case .date:
            let seconds = try date(input, attribute)
            guard seconds.isFinite else { throw mismatch(attribute, "\(input.summary) is not a date") }
            return seconds.databaseValue
        case .uuid:
            guard case .string(let s) = input, let uuid = UUID(uuidString: s) else {
                throw mismatch(attribute, "expected a UUID like E621E1F8-C36C-495A-93FC-0C247A3E6E5F, got \(input.summary)")
            }
            return withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case .transformable where TransformableCoding.usesKeyedArchive(attribute):
            return try TransformableCoding.storedBytes(input, for: attribute).databaseValue
        case .binary where attribute.swiftDataValue == .json:
            return try SwiftDataJSON.storedBytes(input, for: attribute).databaseValue
        case .binary, .transformable:
            guard case .string(let s) = input, let data = Data(base64Encoded: s) else {
                throw mismatch(attribute, "expected base64-encoded data, got \(input.summary)")
            }
            if attribute.type == .binary && attribute.allowsExternalBinaryDataStorage {
                return ExternalBinaryData.storedValue(data).databaseValue
            }
            return data.databaseValue
        case .undefined, .objectID, .composite:
            throw mismatch(attribute, "\(attribute.type.rawValue) attributes cannot be stored by cdstore")
        }
    }

    /// The typed value of a stored column value.
    ///
    /// A `Binary` value with external storage that lives in an external file cannot be read without the
    /// store's location: it comes back as the raw column bytes (`0x02 ‖ name ‖ 0x00`). Use
    /// ``objectValue(_:for:externalData:)`` to read those files.
    package static func objectValue(_ stored: DatabaseValue, for attribute: Attribute) -> ObjectValue {
        if case .blob(let data) = stored.storage, attribute.type == .binary, attribute.allowsExternalBinaryDataStorage,
           case .external = ExternalBinaryData.reference(data) {
            return .data(data)
        }
        return (try? objectValue(stored, for: attribute, externalData: nil)) ?? .data(Data())
    }

    /// The typed value of a stored column value; `Binary` values with external storage that live in an
    /// external file are read from `externalData` (the store's `_EXTERNAL_DATA` directory). Throws only for
    /// those: a missing or unreadable file (Core Data error 134185), or no `externalData` given.
    ///
    /// Transformable values with a keyed-archive transformer come back as JSON-able values when they hold
    /// property-list objects (``TransformableCoding``).
    ///
    /// SwiftData's JSON-in-Binary elements come back as the JSON value when it writes back to the same bytes
    /// (``SwiftDataJSON``).
    ///
    /// When `externalData` counts missing files (``ExternalDataLocation/missingFiles``), a value whose file is
    /// missing reads as `.null` and is counted under `entity` instead of throwing.
    package static func objectValue(_ stored: DatabaseValue, for attribute: Attribute,
                                   externalData: ExternalDataLocation?, entity: String? = nil) throws -> ObjectValue {
        switch stored.storage {
        case .null:
            return .null
        case .int64(let i):
            switch attribute.type {
            case .boolean: return .bool(i != 0)
            case .double: return .double(Double(i))
            case .decimal: return .decimal(Double(i))
            case .float: return .float(Float(i))
            case .date: return .date(Double(i))
            default: return .integer(i)
            }
        case .double(let d):
            switch attribute.type {
            case .float: return .float(Float(d))
            case .decimal: return .decimal(d)
            case .date: return .date(d)
            // `where` binds to the last pattern only: each integer type needs its own, or a REAL such as 1e300
            // in an Integer 16 column would trap converting to Int64.
            case .integer16 where d == d.rounded() && abs(d) < 9.2e18, .integer32 where d == d.rounded() && abs(d) < 9.2e18,
                 .integer64 where d == d.rounded() && abs(d) < 9.2e18:
                return .integer(Int64(d))
            case .boolean: return .bool(d != 0)
            default: return .double(d)
            }
        case .string(let s):
            return .string(s)
        case .blob(let data):
            if attribute.type == .uuid, data.count == 16 {
                let b = [UInt8](data)
                return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                                         b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
            }
            if attribute.type == .binary && attribute.allowsExternalBinaryDataStorage {
                if case .external(let name) = ExternalBinaryData.reference(data), let externalData,
                   let missing = externalData.missingFiles, !externalData.containsFile(name) {
                    missing.record(entity: entity, attribute: attribute.name)
                    return .null
                }
                do {
                    return .data(try ExternalBinaryData.contents(data, location: externalData))
                } catch let error as StoreError {
                    var located = error
                    located.property = located.property ?? attribute.name
                    throw located
                }
            }
            if TransformableCoding.usesKeyedArchive(attribute) {
                return TransformableCoding.objectValue(data)
            }
            if attribute.type == .binary && attribute.swiftDataValue == .json {
                return SwiftDataJSON.objectValue(data)
            }
            return .data(data)
        }
    }

    // MARK: - Conversions

    static func integer(_ input: InputValue, _ attribute: Attribute) throws -> Int64 {
        switch input {
        case .integer(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: return Int64(d)
        case .string(let s):
            let text = s.trimmedSpaces
            if let i = Int64(text) { return i }
            if let d = Double(text), d == d.rounded(), abs(d) < 9.2e18, text.contains(".") { return Int64(d) }
            if text.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "+" }) && !text.isEmpty {
                throw mismatch(attribute, "\(text) is out of range for \(attribute.type.rawValue)")
            }
        default: break
        }
        throw mismatch(attribute, "expected a whole number, got \(input.summary)")
    }

    /// SQLite stores a NaN REAL as NULL, so NaN would silently become nil: refuse it instead.
    static func storableDouble(_ input: InputValue, _ attribute: Attribute) throws -> Double {
        let value = try double(input, attribute)
        guard !value.isNaN else {
            throw mismatch(attribute, "NaN cannot be stored: SQLite (and so Core Data) keeps NaN as NULL")
        }
        return value
    }

    static func boolean(_ input: InputValue, _ attribute: Attribute) throws -> Bool {
        switch input {
        case .bool(let b): return b
        case .integer(let i) where i == 0 || i == 1: return i == 1
        case .string(let s):
            switch s.trimmedSpaces.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: break
            }
        default: break
        }
        throw mismatch(attribute, "expected a boolean (true/false, yes/no, 1/0), got \(input.summary)")
    }

    static func double(_ input: InputValue, _ attribute: Attribute) throws -> Double {
        switch input {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .string(let s):
            let text = s.trimmedSpaces
            switch text {
            case "NaN", "nan": return .nan
            case "Infinity", "inf", "+Infinity": return .infinity
            case "-Infinity", "-inf": return -.infinity
            default: if let d = Double(text) { return d }
            }
        default: break
        }
        throw mismatch(attribute, "expected a number, got \(input.summary)")
    }

    static func date(_ input: InputValue, _ attribute: Attribute) throws -> Double {
        switch input {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .string(let s):
            if let seconds = DateParsing.secondsSince2001(s) { return seconds }
        default: break
        }
        throw mismatch(attribute, "expected an ISO 8601 date (2024-05-01, 2024-05-01T12:30:00Z) or seconds since "
                       + "2001-01-01, got \(input.summary)")
    }

    static func mismatch(_ attribute: Attribute, _ message: String) -> StoreError {
        StoreError(.invalidInput, message, property: attribute.name)
    }
}
