import Foundation

/// Writes ``PropertyListValue``s as binary property lists (`bplist00`), deterministically: the bytes are a
/// pure function of the value.
///
/// Foundation's `PropertyListSerialization` writes dictionary entries in the order the dictionary iterates,
/// which Swift randomises per process, so the same metadata written twice would differ. This writer sorts
/// dictionary keys (by their UTF-8 bytes, i.e. code-point order), numbers objects in a fixed depth-first
/// order (the object, then a dictionary's keys, then its values; an array's elements in order — the order
/// CoreFoundation uses), and shares equal scalar objects (strings, numbers, booleans, dates, data, UIDs),
/// as CoreFoundation does. Containers are never shared.
///
/// Encodings follow CoreFoundation's writer: integers in 1, 2, 4 bytes when non-negative and small
/// enough, else 8 (negative numbers always 8); reals and dates as 8-byte doubles; ASCII strings as `0x5n`,
/// others as UTF-16 big-endian `0x6n`; UIDs in 1, 2, 4 or 8 bytes; counts ≥ 15 as a following integer
/// object; object references and offsets in the fewest bytes that hold them.
package enum BinaryPropertyListWriter {
    /// Why a value cannot be written.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The `bplist00` bytes of `value`. Throws for ``PropertyListValue/null`` (not a property-list type)
    /// and negative UIDs.
    package static func write(_ value: PropertyListValue) throws -> [UInt8] {
        var flattener = Flattener()
        try flattener.flatten(value)
        let objects = flattener.objects
        let refSize = byteCount(UInt64(objects.count))

        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            try encode(object, refs: flattener, refSize: refSize, into: &out)
        }
        let tableOffset = out.count
        // Sized for the table's own offset, as CFBinaryPlist writes it and requires when it reads: a last object
        // starting below 64 KiB but ending past it would otherwise get 2-byte offsets that Foundation rejects.
        let offsetSize = byteCount(UInt64(tableOffset))
        for offset in offsets { appendUInt(UInt64(offset), size: offsetSize, to: &out) }
        // Trailer: 5 unused bytes, sort version, offset size, reference size, object count, top object,
        // offset-table offset.
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        appendUInt(UInt64(objects.count), size: 8, to: &out)
        appendUInt(0, size: 8, to: &out)
        appendUInt(UInt64(tableOffset), size: 8, to: &out)
        return out
    }

    /// The `bplist00` bytes of `value` as `Data`.
    package static func data(_ value: PropertyListValue) throws -> Data {
        Data(try write(value))
    }

    // MARK: - Object table

    /// A scalar's identity for sharing: equal values of the same kind share one object (reals and dates
    /// by bit pattern, so -0.0 and 0.0 stay apart).
    private enum ScalarKey: Hashable {
        case bool(Bool), int(Int64), real(UInt64), date(UInt64), data([UInt8]), string([UInt8]), uid(Int)
    }

    private static func scalarKey(_ value: PropertyListValue) -> ScalarKey? {
        switch value {
        case .bool(let b): .bool(b)
        case .int(let n): .int(n)
        case .real(let d): .real(d.bitPattern)
        case .date(let d): .date(d.bitPattern)
        case .data(let bytes): .data(bytes)
        case .string(let s): .string(Array(s.utf8))
        case .uid(let n): .uid(n)
        case .null, .array, .dictionary: nil
        }
    }

    /// Dictionary entries in the order they are written.
    fileprivate static func sortedEntries(_ d: [String: PropertyListValue]) -> [(String, PropertyListValue)] {
        d.map { ($0.key, $0.value) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    }

    /// Numbers the objects: `objects[i]` is object `i`; containers refer to their children through `refs`.
    private struct Flattener {
        enum Object {
            case scalar(PropertyListValue)
            case array([Int])
            case dictionary(keys: [Int], values: [Int])
        }

        var objects: [Object] = []
        var shared: [ScalarKey: Int] = [:]

        @discardableResult
        mutating func flatten(_ value: PropertyListValue, depth: Int = 0) throws -> Int {
            guard depth < 10_000 else { throw Failure(description: "property list nests too deeply") }
            if case .null = value { throw Failure(description: "a property list cannot hold null") }
            if case .uid(let n) = value, n < 0 { throw Failure(description: "negative archiver UID \(n)") }
            if let key = scalarKey(value) {
                if let index = shared[key] { return index }
                objects.append(.scalar(value))
                shared[key] = objects.count - 1
                return objects.count - 1
            }
            let index = objects.count
            objects.append(.array([]))  // placeholder, filled below
            switch value {
            case .array(let items):
                var refs: [Int] = []
                refs.reserveCapacity(items.count)
                for item in items { refs.append(try flatten(item, depth: depth + 1)) }
                objects[index] = .array(refs)
            case .dictionary(let d):
                let entries = sortedEntries(d)
                var keys: [Int] = []
                var values: [Int] = []
                for (key, _) in entries { keys.append(try flatten(.string(key), depth: depth + 1)) }
                for (_, item) in entries { values.append(try flatten(item, depth: depth + 1)) }
                objects[index] = .dictionary(keys: keys, values: values)
            default:
                break
            }
            return index
        }
    }

    // MARK: - Encoding

    private static func encode(_ object: Flattener.Object, refs: Flattener, refSize: Int, into out: inout [UInt8]) throws {
        switch object {
        case .array(let items):
            appendMarker(0xA0, count: items.count, to: &out)
            for ref in items { appendUInt(UInt64(ref), size: refSize, to: &out) }
        case .dictionary(let keys, let values):
            appendMarker(0xD0, count: keys.count, to: &out)
            for ref in keys { appendUInt(UInt64(ref), size: refSize, to: &out) }
            for ref in values { appendUInt(UInt64(ref), size: refSize, to: &out) }
        case .scalar(let value):
            switch value {
            case .bool(let b):
                out.append(b ? 0x09 : 0x08)
            case .int(let n):
                appendInteger(n, to: &out)
            case .real(let d):
                out.append(0x23)
                appendUInt(d.bitPattern, size: 8, to: &out)
            case .date(let d):
                out.append(0x33)
                appendUInt(d.bitPattern, size: 8, to: &out)
            case .data(let bytes):
                appendMarker(0x40, count: bytes.count, to: &out)
                out += bytes
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) {
                    let bytes = Array(s.utf8)
                    appendMarker(0x50, count: bytes.count, to: &out)
                    out += bytes
                } else {
                    let units = Array(s.utf16)
                    appendMarker(0x60, count: units.count, to: &out)
                    for unit in units { out += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                }
            case .uid(let n):
                let size = byteCount(UInt64(n))
                out.append(0x80 | UInt8(size - 1))
                appendUInt(UInt64(n), size: size, to: &out)
            case .null, .array, .dictionary:
                throw Failure(description: "internal: container stored as a scalar")
            }
        }
    }

    /// A type marker with its count: in the low nibble below 15, else `0xF` and an integer object.
    private static func appendMarker(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    private static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
        if n < 0 {
            out.append(0x13)
            appendUInt(UInt64(bitPattern: n), size: 8, to: &out)
            return
        }
        let size = byteCount(UInt64(n))
        out.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendUInt(UInt64(n), size: size, to: &out)
    }

    /// The fewest of 1, 2, 4, 8 bytes that hold `value`.
    private static func byteCount(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendUInt(_ value: UInt64, size: Int, to out: inout [UInt8]) {
        for i in stride(from: size - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }
}
