import Foundation

/// Reads property lists into ``PropertyListValue``: binary (`bplist00`) and XML, each with a reader of cdstore's own
/// (Foundation's, C code underneath, crashed on damaged input; `{"CF$UID": n}` dictionaries become UIDs).
package enum PropertyListReader {
    /// Why bytes could not be read as a property list.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Reads a binary (`bplist00`) or XML property list.
    package static func read(_ data: Data) throws -> PropertyListValue {
        try read([UInt8](data))
    }

    /// Reads a binary (`bplist00`) or XML property list. The old OpenStep text format is refused: Core Data and
    /// Xcode write neither it nor anything else, and only Foundation's parser could read it.
    package static func read(_ bytes: [UInt8]) throws -> PropertyListValue {
        if bytes.starts(with: Array("bplist00".utf8)) {
            var reader = BinaryReader(bytes: bytes)
            return try reader.parse()
        }
        // Foundation would read other versions (`bplist01`…) as binary too, with a parser that crashes on some damaged
        // files (found by fuzz-compiled-model); Core Data writes only `bplist00`.
        if bytes.starts(with: Array("bplist".utf8)) {
            throw Failure(description: "binary property list of an unsupported version (expected bplist00)")
        }
        guard looksLikeXML(bytes) else {
            throw Failure(description: "not a property list (cdstore reads binary bplist00 and XML property lists)")
        }
        return try XMLPropertyListReader.read(bytes)
    }

    /// Whether `bytes` start as an XML document: a byte-order mark, or `<` after white space.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || bytes.starts(with: [0x00, 0x3C]) {
            return true
        }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// Foundation's objects as ``PropertyListValue``s; more than 512 nested containers are refused, as the binary
    /// reader refuses them, rather than recursing on.
    static func convert(_ object: Any, depth: Int = 0) throws -> PropertyListValue {
        guard depth < 512 else { throw Failure(description: "property list nests more than 512 containers deep") }
        switch object {
        case let b as Bool where type(of: object) == Bool.self: return .bool(b)
        // Swift numbers by their exact type (`as? Int` would also match an NSNumber holding 2.0).
        case let n as Int where type(of: object) == Int.self: return .int(Int64(n))
        case let n as Int64 where type(of: object) == Int64.self: return .int(n)
        case let n as Int32 where type(of: object) == Int32.self: return .int(Int64(n))
        case let n as UInt32 where type(of: object) == UInt32.self: return .int(Int64(n))
        case let d as Double where type(of: object) == Double.self: return .real(d)
        case let d as Float where type(of: object) == Float.self: return .real(Double(d))
        case let s as String: return .string(s)
        case let d as Data: return .data([UInt8](d))
        case let d as Date: return .date(d.timeIntervalSinceReferenceDate)
        case let a as [Any]: return .array(try a.map { try convert($0, depth: depth + 1) })
        case let d as [String: Any]:
            if d.count == 1, let uid = d["CF$UID"] as? NSNumber { return .uid(uid.intValue) }
            return .dictionary(try d.mapValues { try convert($0, depth: depth + 1) })
        case let n as NSNumber:
            let type = String(cString: n.objCType)
            if type == "d" || type == "f" { return .real(n.doubleValue) }
            // NSNumber(value: true) on Linux: a `char` of 0 or 1 (Foundation itself reads plist booleans as Bool).
            if type == "c", n.int64Value == 0 || n.int64Value == 1 { return .bool(n.boolValue) }
            return .int(n.int64Value)
        default:
            // Foundation on Linux turns `{"CF$UID": n}` into an opaque `_NSKeyedArchiverUID` with a `value`.
            if String(describing: type(of: object)).contains("KeyedArchiverUID"),
               let value = Mirror(reflecting: object).children.first(where: { $0.label == "value" })?.value {
                if let n = value as? UInt32 { return .uid(Int(n)) }
                if let n = value as? Int { return .uid(n) }
                if let n = value as? UInt64, let uid = Int(exactly: n) { return .uid(uid) }
            }
            throw Failure(description: "unsupported property-list value \(type(of: object))")
        }
    }

    /// The binary property list format (`bplist00`): objects addressed through an offset table, described by
    /// a 32-byte trailer.
    private struct BinaryReader {
        let bytes: [UInt8]
        var offsetSize = 0, refSize = 0, objectCount = 0, offsetTable = 0
        var cache: [Int: PropertyListValue] = [:]
        /// The containers being read: a reference back to one of them is a cycle (Foundation's own reader
        /// would loop); deeper than 512 is refused as the JSON reader refuses it.
        var path = ObjectPath(depthLimit: 512)

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func parse() throws -> PropertyListValue {
            guard bytes.count >= 8 + 32 + 1 else { throw Failure(description: "binary property list is truncated") }
            let t = bytes.count - 32
            offsetSize = Int(bytes[t + 6])
            refSize = Int(bytes[t + 7])
            let count = try uint(at: t + 8, size: 8)
            let top = try uint(at: t + 16, size: 8)
            let table = try uint(at: t + 24, size: 8)
            guard (1...8).contains(offsetSize), (1...8).contains(refSize), count > 0, count < UInt64(bytes.count),
                  top < count, table < UInt64(t), UInt64(t) - table >= count * UInt64(offsetSize)
            else { throw Failure(description: "binary property list has a damaged trailer (truncated?)") }
            objectCount = Int(count)
            offsetTable = Int(table)
            return try object(Int(top))
        }

        func uint(at offset: Int, size: Int) throws -> UInt64 {
            guard offset >= 0, size <= 8, offset + size <= bytes.count else {
                throw Failure(description: "binary property list is truncated")
            }
            var value: UInt64 = 0
            for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
            return value
        }

        /// An unsigned big-endian integer that must fit in `Int`: an offset, a reference or a UID (a damaged file can
        /// hold 2^64 - 1, which `Int(_:)` would trap on; found by fuzz-plist).
        func int(at offset: Int, size: Int) throws -> Int {
            guard let value = Int(exactly: try uint(at: offset, size: size)) else {
                throw Failure(description: "binary property list has an offset or reference out of range")
            }
            return value
        }

        mutating func object(_ ref: Int) throws -> PropertyListValue {
            if let known = cache[ref] { return known }
            guard ref >= 0, ref < objectCount else { throw Failure(description: "object reference \(ref) out of range") }
            do {
                try path.enter(ref) { "object #\($0)" }
            } catch {
                throw Failure(description: "binary property list: " + error.description)
            }
            defer { path.leave() }
            let offset = try int(at: offsetTable + ref * offsetSize, size: offsetSize)
            guard offset >= 8, offset < offsetTable else { throw Failure(description: "object offset out of range") }
            let value = try parseObject(at: offset)
            cache[ref] = value
            return value
        }

        /// The count of a container/string marker and where its contents start.
        func length(_ marker: UInt8, at offset: Int) throws -> (Int, Int) {
            let low = Int(marker & 0x0F)
            if low != 0x0F { return (low, offset + 1) }
            guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else {
                throw Failure(description: "bad length in binary property list")
            }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            let n = try uint(at: offset + 2, size: size)
            guard n < UInt64(bytes.count) else { throw Failure(description: "length out of range") }
            return (Int(n), offset + 2 + size)
        }

        func check(_ start: Int, _ count: Int) throws {
            guard start >= 0, count >= 0, start + count <= bytes.count else {
                throw Failure(description: "binary property list is truncated")
            }
        }

        mutating func parseObject(at offset: Int) throws -> PropertyListValue {
            let marker = bytes[offset]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw Failure(description: String(format: "unknown marker 0x%02x", marker))
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                if size == 16 {  // 128-bit: keep the low 64 bits
                    return .int(Int64(bitPattern: try uint(at: offset + 9, size: 8)))
                }
                let raw = try uint(at: offset + 1, size: size)
                return .int(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                let raw = try uint(at: offset + 1, size: size)
                if size == 4 { return .real(Double(Float(bitPattern: UInt32(raw)))) }
                guard size == 8 else { throw Failure(description: "bad real size") }
                return .real(Double(bitPattern: raw))
            case 0x3:
                return .date(Double(bitPattern: try uint(at: offset + 1, size: 8)))
            case 0x4:
                let (n, start) = try length(marker, at: offset)
                try check(start, n)
                return .data(Array(bytes[start..<start + n]))
            case 0x5:
                let (n, start) = try length(marker, at: offset)
                try check(start, n)
                return .string(String(decoding: bytes[start..<start + n], as: UTF8.self))
            case 0x6:
                let (n, start) = try length(marker, at: offset)
                try check(start, n * 2)
                var units: [UInt16] = []
                units.reserveCapacity(n)
                for i in 0..<n { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x7:
                let (n, start) = try length(marker, at: offset)
                try check(start, n)
                return .string(String(decoding: bytes[start..<start + n], as: UTF8.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                return .uid(try int(at: offset + 1, size: size))
            case 0xA, 0xB, 0xC:
                let (n, start) = try length(marker, at: offset)
                try check(start, n * refSize)
                var items: [PropertyListValue] = []
                items.reserveCapacity(n)
                for i in 0..<n { items.append(try object(try int(at: start + i * refSize, size: refSize))) }
                return .array(items)
            case 0xD:
                let (n, start) = try length(marker, at: offset)
                try check(start, 2 * n * refSize)
                var dict: [String: PropertyListValue] = [:]
                for i in 0..<n {
                    let key = try object(try int(at: start + i * refSize, size: refSize))
                    let value = try object(try int(at: start + (n + i) * refSize, size: refSize))
                    guard case .string(let k) = key else { throw Failure(description: "dictionary key is not a string") }
                    dict[k] = value
                }
                return .dictionary(dict)
            default:
                throw Failure(description: String(format: "unknown marker 0x%02x", marker))
            }
        }
    }
}
