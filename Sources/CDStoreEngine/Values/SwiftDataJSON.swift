import CDStoreJSON
import CDStoreModel
import Foundation

/// Binary elements of a SwiftData composite that hold a `Codable` collection as JSON (``SwiftDataValue/json``):
/// shown and accepted as the JSON value the app's property holds, with the stored bytes unchanged on a round trip.
///
/// **The bytes SwiftData writes** are Foundation's `JSONEncoder` with its default settings (coredata-format.md
/// §1.5; swift-foundation's `JSONWriter`): compact (no white space), strings in UTF-8 with `"` `\` and `/` escaped
/// (`\"`, `\\`, `\/`), U+0008, U+000C, LF, CR and tab as `\b` `\f` `\n` `\r` `\t`, other control characters as
/// `\u00xx` (lower-case hex), nothing else escaped; integers in decimal, floating-point numbers as Swift's
/// `description` without a trailing `.0` (`2.5`, `5`, `1e-05`, `1e+16`); object keys in the order the encoder's
/// dictionary gave them, which is no fixed order.
///
/// **Reading.** The stored bytes are parsed, keys kept in their stored order, and written again by those rules:
/// when that gives the very same bytes, the value is the JSON value (``ObjectValue/array(_:)``,
/// ``ObjectValue/dictionary(_:)``); otherwise (bytes another writer made, a number the rules would write
/// differently, not JSON at all) it stays ``ObjectValue/data(_:)``, printed base64. So a value is shown as JSON
/// only when writing it back gives the bytes it came from.
///
/// **Writing.** A JSON array or object is written by the rules above, its object keys in the order given; so is a
/// string holding one (a CSV cell); any other string is base64 bytes stored as they are (what reading printed for
/// bytes it kept); anything else is refused, since the Swift type is a collection.
enum SwiftDataJSON {
    /// The value stored bytes stand for: the JSON value when it writes back to the same bytes, else the bytes.
    static func objectValue(_ stored: Data) -> ObjectValue {
        guard let first = stored.first, first == UInt8(ascii: "[") || first == UInt8(ascii: "{"),
              let text = String(data: stored, encoding: .utf8),
              let parsed = try? JSONReader.parse(text, options: .strict),
              let written = try? bytes(of: parsed), written == stored else {
            return .data(stored)
        }
        return objectValue(parsed)
    }

    private static func objectValue(_ value: JSONValue) -> ObjectValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(objectValue))
        case .object(let members): .dictionary(members.map { ($0.0, objectValue($0.1)) })
        }
    }

    /// The bytes to store for `input` (not `.null`, which is NULL).
    static func storedBytes(_ input: InputValue, for attribute: Attribute) throws -> Data {
        switch input {
        case .array, .object:
            do {
                return try bytes(of: input)
            } catch let problem as Problem {
                throw AttributeCoding.mismatch(attribute, problem.message)
            }
        case .string(let text) where text.hasPrefix("[") || text.hasPrefix("{"):
            // JSON text, as a CSV cell holds it (base64 never starts with a bracket or brace).
            let parsed: JSONValue
            do {
                parsed = try JSONReader.parse(text, options: .strict)
            } catch {
                throw AttributeCoding.mismatch(attribute, "the text is not JSON: \(error)")
            }
            return try storedBytes(parsed, for: attribute)
        case .string(let text):
            guard let data = Data(base64Encoded: text) else {
                throw AttributeCoding.mismatch(attribute, "expected the JSON array or object the app's Swift type "
                                               + "holds, or base64-encoded bytes, got \(input.summary)")
            }
            return data
        default:
            throw AttributeCoding.mismatch(attribute, "expected the JSON array or object the app's Swift type holds "
                                           + "(SwiftData stores it as JSON), got \(input.summary)")
        }
    }

    private struct Problem: Error {
        let message: String
    }

    /// `value` as `JSONEncoder` writes it. Non-finite numbers have no JSON form (`JSONEncoder` refuses them).
    static func bytes(of value: JSONValue) throws -> Data {
        var out: [UInt8] = []
        try write(value, to: &out, path: "")
        return Data(out)
    }

    private static func write(_ value: JSONValue, to out: inout [UInt8], path: String) throws {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let i): out += Array(String(i).utf8)
        case .double(let d):
            guard d.isFinite else {
                throw Problem(message: "\(d)\(path.isEmpty ? "" : " at \(path)") has no JSON form: SwiftData's "
                              + "JSONEncoder refuses NaN and infinity")
            }
            var text = d.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out += Array(text.utf8)
        case .string(let s): writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(item, to: &out, path: path + "[\(index)]")
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, item)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                try write(item, to: &out, path: path + "." + key)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "/"): out += [UInt8(ascii: "\\"), UInt8(ascii: "/")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
