import Foundation

/// A property-list object graph as `NSKeyedArchiver` archives it: NSArray, NSDictionary (string keys, in
/// order), NSString, NSNumber (integer, double, boolean), NSDate, NSData and NSNull.
///
/// This is what a Transformable attribute with Core Data's default transformer
/// (`NSSecureUnarchiveFromData`) holds for the collection and scalar types apps usually keep there.
package indirect enum ArchivedPropertyList: Sendable, Equatable {
    /// NSNull (or a nil reference).
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    /// NSDate: seconds since 2001-01-01.
    case date(Double)
    case data([UInt8])
    case array([ArchivedPropertyList])
    /// NSDictionary with string keys, in archive (`NS.keys`) order.
    case dictionary([(String, ArchivedPropertyList)])

    package static func == (lhs: ArchivedPropertyList, rhs: ArchivedPropertyList) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)), let (.date(a), .date(b)): a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): a == b
        case let (.data(a), .data(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.dictionary(a), .dictionary(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}

// MARK: - Reading

extension KeyedArchive {
    /// Why an archive does not hold only property-list objects (names the class it met).
    package struct UnsupportedContent: Error, CustomStringConvertible {
        package var description: String
    }

    /// The root object as property-list values. Throws ``UnsupportedContent`` for any other class (UIColor,
    /// NSSet, NSURL, app classes...), for dictionaries with non-string keys, and for cycles.
    ///
    /// Accepted classes (by their `$classes` chain): NSArray and NSMutableArray (`NS.objects`), NSDictionary
    /// and NSMutableDictionary (`NS.keys`/`NS.objects`), NSString/NSMutableString (`NS.string`), NSDate
    /// (`NS.time`), NSData/NSMutableData (`NS.data`), NSNull; numbers, strings and data written inline.
    package func propertyListRoot() throws -> ArchivedPropertyList {
        try propertyListObject(at: root)
    }

    /// The object at `index` of `$objects` (and everything it refers to) as property-list values; throws
    /// ``UnsupportedContent`` as ``propertyListRoot()`` does, and for containers nested more than 512 deep (the
    /// JSON reader's limit, so that any value cdstore archives from JSON reads back).
    package func propertyListObject(at index: Int) throws -> ArchivedPropertyList {
        do {
            return try archivedValue(.uid(index), walk: Walk(self, depthLimit: 512))
        } catch let error as ObjectPathError {
            throw UnsupportedContent(description: error.description)
        }
    }

    private func archivedValue(_ value: PropertyListValue, walk: Walk) throws -> ArchivedPropertyList {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let n): return .integer(n)
        case .real(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let bytes): return .data(bytes)
        case .date(let d): return .date(d)
        case .array, .dictionary:
            throw UnsupportedContent(description: "an inline container where an object reference was expected")
        case .uid(let index):
            if index == 0 { return .null }
            guard index > 0, index < objects.count else {
                throw UnsupportedContent(description: "object reference \(index) out of range")
            }
            let object = objects[index]
            guard case .dictionary(let fields) = object else {
                if case .uid = object { throw UnsupportedContent(description: "a reference to a reference") }
                return try archivedValue(object, walk: walk)
            }
            return try walk.visit(index) { try archivedObject(index, fields, walk: walk) }
        }
    }

    private func archivedObject(_ index: Int, _ fields: [String: PropertyListValue],
                                walk: Walk) throws -> ArchivedPropertyList {
        let chain = classChain(index)
        let name = chain.first ?? "an object without a class"
        func items(_ key: String) throws -> [PropertyListValue] {
            guard case .array(let list)? = fields[key] else {
                throw UnsupportedContent(description: "\(name) without \(key)")
            }
            return list
        }
        if chain.contains("NSDictionary") {
            let keys = try items("NS.keys"), values = try items("NS.objects")
            guard keys.count == values.count else {
                throw UnsupportedContent(description: "\(name) with \(keys.count) keys and \(values.count) values")
            }
            var entries: [(String, ArchivedPropertyList)] = []
            entries.reserveCapacity(keys.count)
            for (key, item) in zip(keys, values) {
                guard case .string(let text) = try archivedValue(key, walk: walk) else {
                    throw UnsupportedContent(description: "\(name) with a key that is not a string")
                }
                entries.append((text, try archivedValue(item, walk: walk)))
            }
            return .dictionary(entries)
        }
        if chain.contains("NSArray") {
            return .array(try items("NS.objects").map { try archivedValue($0, walk: walk) })
        }
        if chain.contains("NSString") {
            if case .string(let s)? = fields["NS.string"] { return .string(s) }
            if case .data(let bytes)? = fields["NS.bytes"] { return .string(String(decoding: bytes, as: UTF8.self)) }
            throw UnsupportedContent(description: "\(name) without NS.string")
        }
        if chain.contains("NSDate") {
            switch fields["NS.time"] {
            case .real(let d)?: return .date(d)
            case .int(let n)?: return .date(Double(n))
            default: throw UnsupportedContent(description: "\(name) without NS.time")
            }
        }
        if chain.contains("NSData") {
            if case .data(let bytes)? = fields["NS.data"] { return .data(bytes) }
            throw UnsupportedContent(description: "\(name) without NS.data")
        }
        if chain.contains("NSNull") { return .null }
        throw UnsupportedContent(description: "an archived \(name), not a property-list object")
    }
}

// MARK: - Writing

/// Writes ``ArchivedPropertyList`` values as `NSKeyedArchiver` archives, laid out as Apple's archiver lays
/// them out for `archivedData(withRootObject:requiringSecureCoding:)`:
///
/// - top level `{"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(1)}, "$objects": [...]}`;
/// - `$objects[0]` is `"$null"`; the root is object 1; objects are numbered depth first as they are encoded
///   (an object, then its children), and each class record (`{"$classname", "$classes"}`) is added after the
///   first object of its class has been encoded, then shared;
/// - strings, numbers (integers, doubles, booleans) and data inline; equal inline values share one object
///   (as Apple's constant strings and tagged numbers do); NSNull is one shared object;
/// - NSArray `{"NS.objects": [UID...], "$class"}` (classes `NSArray, NSObject`), NSDictionary
///   `{"NS.keys": [UID...], "NS.objects": [UID...], "$class"}` (`NSDictionary, NSObject`; keys first, then
///   values), NSDate `{"NS.time": real, "$class"}` (`NSDate, NSObject`), NSNull `{"$class"}` (`NSNull, NSObject`).
///
/// The bytes are a binary plist from ``BinaryPropertyListWriter``, so they are a pure function of the value.
package enum KeyedArchiveWriter {
    /// The archive bytes (`bplist00`) of `root`.
    package static func archive(_ root: ArchivedPropertyList) throws -> [UInt8] {
        var builder = Builder()
        let rootRef = try builder.encode(root, depth: 0)
        let plist: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .int(100_000),
            "$top": .dictionary(["root": rootRef]),
            "$objects": .array(builder.objects),
        ])
        return try BinaryPropertyListWriter.write(plist)
    }

    private struct Builder {
        private enum InlineKey: Hashable {
            case bool(Bool), int(Int64), real(UInt64), string(String), data([UInt8]), null
        }

        var objects: [PropertyListValue] = [.string("$null")]
        private var inline: [InlineKey: Int] = [:]
        private var classes: [String: Int] = [:]

        private mutating func add(_ value: PropertyListValue) -> Int {
            objects.append(value)
            return objects.count - 1
        }

        private mutating func shared(_ key: InlineKey, _ value: @autoclosure () -> PropertyListValue) -> PropertyListValue {
            if let index = inline[key] { return .uid(index) }
            let index = add(value())
            inline[key] = index
            return .uid(index)
        }

        private mutating func classRecord(_ name: String) -> PropertyListValue {
            if let index = classes[name] { return .uid(index) }
            let index = add(.dictionary([
                "$classname": .string(name),
                "$classes": .array([.string(name), .string("NSObject")]),
            ]))
            classes[name] = index
            return .uid(index)
        }

        /// Encodes `value` and returns the reference to it.
        mutating func encode(_ value: ArchivedPropertyList, depth: Int) throws -> PropertyListValue {
            guard depth < 5_000 else { throw KeyedArchive.Failure(description: "value nests too deeply to archive") }
            switch value {
            case .bool(let b): return shared(.bool(b), .bool(b))
            case .integer(let n): return shared(.int(n), .int(n))
            case .double(let d): return shared(.real(d.bitPattern), .real(d))
            case .string(let s): return shared(.string(s), .string(s))
            case .data(let bytes): return shared(.data(bytes), .data(bytes))
            case .null:
                if let index = inline[.null] { return .uid(index) }
                let index = add(.null)  // placeholder until the class record exists
                inline[.null] = index
                objects[index] = .dictionary(["$class": classRecord("NSNull")])
                return .uid(index)
            case .date(let seconds):
                let index = add(.null)
                objects[index] = .dictionary(["NS.time": .real(seconds), "$class": classRecord("NSDate")])
                return .uid(index)
            case .array(let items):
                let index = add(.null)
                var refs: [PropertyListValue] = []
                refs.reserveCapacity(items.count)
                for item in items { refs.append(try encode(item, depth: depth + 1)) }
                objects[index] = .dictionary(["NS.objects": .array(refs), "$class": classRecord("NSArray")])
                return .uid(index)
            case .dictionary(let entries):
                let index = add(.null)
                var keys: [PropertyListValue] = []
                var values: [PropertyListValue] = []
                for (key, _) in entries { keys.append(try encode(.string(key), depth: depth + 1)) }
                for (_, item) in entries { values.append(try encode(item, depth: depth + 1)) }
                objects[index] = .dictionary([
                    "NS.keys": .array(keys), "NS.objects": .array(values), "$class": classRecord("NSDictionary"),
                ])
                return .uid(index)
            }
        }
    }
}
