import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// Transformable attributes whose value transformer unarchives keyed archives (Core Data's default): their
/// column holds an `NSKeyedArchiver` archive, shown and accepted as JSON when it holds property-list objects.
///
/// **Which attributes.** Those with no `valueTransformerName` (Core Data's default transformer) or with
/// `NSSecureUnarchiveFromData`, `NSSecureUnarchiveFromDataTransformer` or `NSKeyedUnarchiveFromData`. Any other
/// transformer name (an app's own class) keeps raw bytes: base64 in and out.
///
/// **Reading.** A keyed archive of NSArray, NSDictionary (string keys), NSString, NSNumber, NSDate, NSData and
/// NSNull becomes ``ObjectValue/array(_:)``, ``ObjectValue/dictionary(_:)``, strings, numbers, booleans,
/// ``ObjectValue/date(_:)`` (printed ISO 8601), ``ObjectValue/data(_:)`` (printed base64) and null. Anything
/// else (UIColor, NSSet, NSURL, an app's class, bytes that are no archive) stays ``ObjectValue/data(_:)``:
/// the raw column bytes, printed base64.
///
/// **Writing** (the rule for input):
/// - JSON arrays, objects, numbers and booleans are archived (NSArray, NSDictionary, NSNumber); `null` inside
///   them is NSNull; a top-level `null` is nil (NULL column).
/// - A top-level string is **raw archive bytes** when it is base64 whose bytes start with `bplist00` — what
///   `export` prints for a value it could not decode, so exported values import back unchanged; any other string
///   is archived as an NSString.
/// - Inside arrays and objects, strings are always NSStrings. A one-key object `{"$date": D}` (D an ISO 8601
///   date or seconds since 2001-01-01) is an NSDate, and `{"$data": "base64"}` an NSData — plain JSON has no
///   date or data type, so dates and data that `export` printed as text import back as strings unless tagged.
package enum TransformableCoding {
    /// Transformer names whose stored bytes are a keyed archive (nil/empty: Core Data's default).
    package static let archivingTransformers: Set<String> = [
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData",
    ]

    /// Whether `attribute` is a Transformable attribute whose values are keyed archives (shown as JSON).
    package static func usesKeyedArchive(_ attribute: Attribute) -> Bool {
        guard attribute.type == .transformable else { return false }
        guard let name = attribute.valueTransformerName, !name.isEmpty else { return true }
        return archivingTransformers.contains(name)
    }

    // MARK: - Reading

    /// The value stored bytes stand for: property-list objects as JSON-able values, anything else the bytes.
    package static func objectValue(_ stored: Data) -> ObjectValue {
        guard let decoded = decode(stored) else { return .data(stored) }
        return objectValue(decoded)
    }

    /// The property-list objects of a keyed archive, or nil when the bytes hold anything else.
    package static func decode(_ stored: Data) -> ArchivedPropertyList? {
        guard stored.starts(with: Array("bplist00".utf8)) || stored.starts(with: Array("<?xml".utf8)) else { return nil }
        guard let archive = try? KeyedArchive(data: stored) else { return nil }
        return try? archive.propertyListRoot()
    }

    static func objectValue(_ value: ArchivedPropertyList) -> ObjectValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let n): .integer(n)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .date(let d): .date(d)
        case .data(let bytes): .data(Data(bytes))
        case .array(let items): .array(items.map(objectValue))
        case .dictionary(let entries): .dictionary(entries.map { ($0.0, objectValue($0.1)) })
        }
    }

    // MARK: - Writing

    /// The bytes to store for `input` (not `.null`, which is NULL) in a keyed-archive Transformable attribute.
    package static func storedBytes(_ input: InputValue, for attribute: Attribute) throws -> Data {
        if case .string(let text) = input, let raw = rawArchive(text) { return raw }
        let value = try archivedValue(input, attribute, path: "")
        do {
            return Data(try KeyedArchiveWriter.archive(value))
        } catch {
            throw AttributeCoding.mismatch(attribute, "cannot archive the value: \(error)")
        }
    }

    /// The bytes of a base64 string that holds a binary property list, else nil.
    static func rawArchive(_ text: String) -> Data? {
        guard text.hasPrefix("YnBsaXN0MD"), let data = Data(base64Encoded: text),
              data.starts(with: Array("bplist00".utf8)) else { return nil }
        return data
    }

    /// The archived form of a JSON value.
    package static func archivedValue(_ input: InputValue, _ attribute: Attribute) throws -> ArchivedPropertyList {
        try archivedValue(input, attribute, path: "")
    }

    private static func archivedValue(_ input: InputValue, _ attribute: Attribute, path: String) throws -> ArchivedPropertyList {
        func at() -> String { path.isEmpty ? "" : " at \(path)" }
        switch input {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .integer(let n): return .integer(n)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let items):
            return .array(try items.enumerated().map { try archivedValue($0.element, attribute, path: path + "[\($0.offset)]") })
        case .object(let fields):
            if fields.count == 1, let (key, value) = fields.first, key == "$date" || key == "$data" {
                if key == "$date" {
                    return .date(try AttributeCoding.date(value, attribute))
                }
                guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
                    throw AttributeCoding.mismatch(attribute, "\"$data\"\(at()) expects base64-encoded data, got \(value.summary)")
                }
                return .data([UInt8](data))
            }
            var seen = Set<String>()
            var entries: [(String, ArchivedPropertyList)] = []
            for (key, value) in fields {
                guard seen.insert(key).inserted else {
                    throw AttributeCoding.mismatch(attribute, "key '\(key)' appears twice\(at()); a dictionary holds each key once")
                }
                entries.append((key, try archivedValue(value, attribute, path: path + "." + key)))
            }
            return .dictionary(entries)
        }
    }
}
