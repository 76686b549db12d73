import Foundation

/// A property-list value with the distinctions keyed archives need and `PropertyListSerialization` on Linux
/// hides: archiver UIDs (which come out as an opaque `_NSKeyedArchiverUID`), booleans apart from integers,
/// and the order of dictionary keys is irrelevant here (archives keep order in `NS.keys` arrays; the binary
/// writer sorts keys).
///
/// `null` exists for binary plists that use the `0x00` marker (rare); Foundation can neither read nor write it,
/// and ``BinaryPropertyListWriter`` refuses it.
package enum PropertyListValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    /// Seconds since 2001-01-01.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// An NSKeyedArchiver object reference (index into `$objects`).
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The entries of a dictionary value.
    package var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// The elements of an array value.
    package var arrayValue: [PropertyListValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The text of a string value.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

extension PropertyListValue {
    /// Converts a Foundation property-list object (`String`, `Data`, `Date`, `Bool`, numbers, `[Any]`,
    /// `[String: Any]`, `NSNumber`...) as `PropertyListSerialization` returns or accepts it.
    /// `{"CF$UID": n}` dictionaries and Foundation's opaque archiver UIDs become ``uid(_:)``.
    package init(foundationObject object: Any) throws {
        self = try PropertyListReader.convert(object)
    }

    /// The value as Foundation objects (`String`, `Data`, `Date`, `Bool`, `Int64`, `Double`, arrays,
    /// dictionaries), for `PropertyListSerialization`. UIDs become `{"CF$UID": n}`; `null` becomes `NSNull`.
    package var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let n): return n
        case .real(let d): return d
        case .date(let d): return Date(timeIntervalSinceReferenceDate: d)
        case .data(let bytes): return Data(bytes)
        case .string(let s): return s
        case .uid(let n): return ["CF$UID": n]
        case .array(let items): return items.map(\.foundationObject)
        case .dictionary(let d): return d.mapValues(\.foundationObject)
        }
    }
}
