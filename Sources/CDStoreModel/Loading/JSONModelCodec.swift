import CDStoreJSON
import Foundation

/// Reads and writes cdstore's JSON model, a human-editable model file documented key by key in
/// `Schemas/README.md`.
///
/// Writing any model and reading the result back gives an equal model (`==`), so
/// `cdstore model compile Model.xcdatamodeld -o Model.json` loses nothing. Output is canonical: keys
/// sorted, two-space indentation, entities and properties in model order, and every key whose value is
/// the default left out.
///
/// ```swift
/// let data = try JSONModelCodec.encode(model)
/// let loaded = try JSONModelCodec.decode(data, file: URL(fileURLWithPath: "Model.json"))
/// assert(loaded.model == model)
/// ```
///
/// Reading is strict: unknown keys (usually typos), missing required keys, values of the wrong JSON type,
/// unknown attribute types and delete rules are errors that name the file, line and column, the entity
/// and property, and the JSON path, e.g.
/// `Model.json:12:9: entity 'Person', property 'age': unknown attribute type 'Int' at entities[0].attributes[1].type …`.
///
/// Core Data has no equivalent; the closest is the Xcode model XML (`contents`).
package enum JSONModelCodec {
    /// The value of the top-level `format` key.
    package static let formatName = "cdstore-model"
    /// The value of the top-level `formatVersion` key this version of cdstore reads and writes.
    package static let formatVersion = 1

    /// Writes `model` as a JSON model: UTF-8, sorted keys, pretty-printed, ending with a newline.
    package static func encode(_ model: ManagedObjectModel) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = escapingLineSeparators(try encoder.encode(tree(of: model)))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// `data` with U+2028 and U+2029 written `\u2028` and `\u2029`, as every JSON output of cdstore has them
    /// (`JSONEncoder` leaves them raw): readers that split lines on Unicode separators would break there. Their
    /// bytes (`E2 80 A8`, `E2 80 A9`) can only be inside strings, so replacing them bytewise is safe.
    static func escapingLineSeparators(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                out += Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return Data(out)
    }

    /// Reads a JSON model from `data`, the contents of `file`.
    ///
    /// The result's ``LoadedModel/sourceMap`` gives the line and column of every entity and property, so
    /// ``ModelValidator`` can point at them.
    /// - Throws: ``ModelError`` with code `malformedJSON` (syntax, unknown or missing keys, wrong types) or
    ///   `invalidValue` (unknown attribute type or delete rule).
    package static func decode(_ data: Data, file: URL) throws -> LoadedModel {
        let name = file.relativePath
        let root: JSONNode
        do {
            // The project's one JSON reader, in the mode for hand-edited files: duplicate keys are refused and
            // trailing commas named; every node keeps its line and column and numbers their text.
            var reader = JSONReader(ByteStream(bytes: Array(data), chunkSize: max(data.count, 16)), options: .strict)
            root = try reader.readNode()
            try reader.expectEnd()
        } catch let error as JSONSyntaxError {
            throw ModelError(.malformedJSON, "not valid JSON: \(error.message)", file: name, line: error.line,
                             column: error.column)
        }
        let (model, sourceMap) = try self.model(from: root, reader: Reader(file: name))
        let loaded = LoadedModel(model: model, file: file, format: .json, sourceMap: sourceMap)
        try loaded.checkInheritanceDepth()
        return loaded
    }
}
