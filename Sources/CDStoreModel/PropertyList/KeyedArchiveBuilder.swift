import Foundation

/// Builds an NSKeyedArchiver archive (`bplist00`) object by object, any classes: the writing side of
/// ``KeyedArchive``. (``KeyedArchiveWriter`` archives plain property-list values; this writes object graphs.)
///
/// The layout is NSKeyedArchiver's (coredata-format.md §4.3): `$archiver = "NSKeyedArchiver"`,
/// `$version = 100000`, `$top = {root: UID}`, `$objects[0] = "$null"`; an object is a dictionary of its
/// encoded keys plus `$class`, a UID of a class record `{$classname, $classes}` written once per class.
/// Objects are numbered as NSKeyedArchiver numbers them: an object takes the next index when its encoding
/// starts, its children follow, and its class record comes after the children of the first object of that
/// class. Scalars given to ``int(_:)``-like field values (`encodeInt:`, `encodeBool:`) stay inline in the
/// object's dictionary; strings, numbers and data stored as objects (``string(_:)``, ``number(_:)``) are
/// `$objects` entries shared by value (Foundation shares them by identity, which only changes the numbering).
///
/// Objects that several others refer to (and cycles: an entity and its properties point at each other) are
/// named by an `identity` string: ``reference(_:)`` hands out the UID of an identity before or after its
/// object is written, and ``begin(_:)``/``end(_:classes:_:)`` write it. ``archive(root:)`` refuses an archive
/// in which a reserved identity was never written.
///
/// The bytes are a pure function of the calls made: ``BinaryPropertyListWriter`` sorts dictionary keys.
package struct KeyedArchiveBuilder: Sendable {
    /// Why an archive cannot be finished.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// `$null`: the reference of a nil object.
    package static let null = PropertyListValue.uid(0)

    private var objects: [PropertyListValue] = [.string("$null")]
    private var classRecords: [[String]: Int] = [:]
    private var sharedScalars: [PropertyListValue: Int] = [:]
    private var identities: [String: Int] = [:]
    /// Indexes reserved for an identity whose object has not been written yet.
    private var unfilled: [Int: String] = [:]

    /// Creates an empty archive.
    package init() {}

    // MARK: - Scalar objects

    /// An NSString object.
    package mutating func string(_ text: String) -> PropertyListValue { shared(.string(text)) }

    /// An NSString object, or `$null` for nil.
    package mutating func string(optional text: String?) -> PropertyListValue { text.map { string($0) } ?? Self.null }

    /// An integer NSNumber object.
    package mutating func number(_ value: Int64) -> PropertyListValue { shared(.int(value)) }

    /// A floating-point NSNumber object. Not shared, so that 0.0 and -0.0 stay apart.
    package mutating func number(_ value: Double) -> PropertyListValue { append(.real(value)) }

    /// A Boolean NSNumber object.
    package mutating func number(_ value: Bool) -> PropertyListValue { shared(.bool(value)) }

    /// An NSData object.
    package mutating func data(_ bytes: [UInt8]) -> PropertyListValue { shared(.data(bytes)) }

    private mutating func shared(_ value: PropertyListValue) -> PropertyListValue {
        if let index = sharedScalars[value] { return .uid(index) }
        let reference = append(value)
        if case .uid(let index) = reference { sharedScalars[value] = index }
        return reference
    }

    private mutating func append(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(objects.count - 1)
    }

    // MARK: - Objects

    /// The UID of the object named `identity`, reserving its place when it has not been written yet.
    package mutating func reference(_ identity: String) -> PropertyListValue {
        if let index = identities[identity] { return .uid(index) }
        let index = objects.count
        objects.append(.null)
        identities[identity] = index
        unfilled[index] = identity
        return .uid(index)
    }

    /// Whether the object named `identity` has been started (with ``begin(_:)``).
    package func isWritten(_ identity: String) -> Bool {
        guard let index = identities[identity] else { return false }
        return unfilled[index] == nil
    }

    /// Starts an object and returns its UID: the next index, or the one reserved for `identity`. Write its
    /// children, then finish it with ``end(_:classes:_:)``; until then, children can point back at it.
    package mutating func begin(_ identity: String? = nil) -> PropertyListValue {
        let index: Int
        if let identity, let known = identities[identity] {
            index = known
        } else {
            index = objects.count
            objects.append(.null)
            if let identity { identities[identity] = index }
        }
        unfilled[index] = nil
        return .uid(index)
    }

    /// Finishes the object `begin` started: its keys, and `$class` for `classes` (its `$classes` chain, the
    /// class first, `NSObject` last).
    package mutating func end(_ object: PropertyListValue, classes: [String], _ fields: [String: PropertyListValue]) {
        guard case .uid(let index) = object, index > 0, index < objects.count else { return }
        var fields = fields
        fields["$class"] = classRecord(classes)
        objects[index] = .dictionary(fields)
    }

    /// An object whose children are already written.
    package mutating func object(classes: [String], _ fields: [String: PropertyListValue]) -> PropertyListValue {
        let reference = begin()
        end(reference, classes: classes, fields)
        return reference
    }

    private mutating func classRecord(_ classes: [String]) -> PropertyListValue {
        if let index = classRecords[classes] { return .uid(index) }
        let record = PropertyListValue.dictionary(["$classname": .string(classes.first ?? "NSObject"),
                                                   "$classes": .array(classes.map { .string($0) })])
        let reference = append(record)
        if case .uid(let index) = reference { classRecords[classes] = index }
        return reference
    }

    // MARK: - Foundation collections

    /// An NSArray (or `className`, e.g. `NSMutableArray`) of already written elements.
    package mutating func array(_ elements: [PropertyListValue], className: String = "NSArray") -> PropertyListValue {
        object(classes: Self.collectionChain(className), ["NS.objects": .array(elements)])
    }

    /// Finishes an array started with ``begin(_:)`` (so that it comes before its elements, as NSKeyedArchiver
    /// orders them).
    package mutating func endArray(_ array: PropertyListValue, _ elements: [PropertyListValue], className: String = "NSArray") {
        end(array, classes: Self.collectionChain(className), ["NS.objects": .array(elements)])
    }

    /// Finishes a dictionary started with ``begin(_:)``: `NS.keys` and `NS.objects` in the order given.
    package mutating func endDictionary(_ dictionary: PropertyListValue, _ entries: [(key: PropertyListValue, value: PropertyListValue)],
                                       className: String = "NSDictionary") {
        end(dictionary, classes: Self.collectionChain(className),
            ["NS.keys": .array(entries.map(\.key)), "NS.objects": .array(entries.map(\.value))])
    }

    /// An NSDictionary of strings, keys in code-point order.
    package mutating func stringDictionary(_ entries: [String: String], className: String = "NSDictionary") -> PropertyListValue {
        let dictionary = begin()
        var written: [(key: PropertyListValue, value: PropertyListValue)] = []
        for key in entries.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
            written.append((string(key), string(entries[key]!)))
        }
        endDictionary(dictionary, written, className: className)
        return dictionary
    }

    /// The `$classes` chain of a Foundation collection class: `NSMutableArray` → `[NSMutableArray, NSArray,
    /// NSObject]`; other names get `[name, NSObject]`.
    package static func collectionChain(_ className: String) -> [String] {
        switch className {
        case "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"]
        case "NSMutableSet": ["NSMutableSet", "NSSet", "NSObject"]
        case "NSMutableDictionary": ["NSMutableDictionary", "NSDictionary", "NSObject"]
        case "NSMutableOrderedSet": ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]
        default: [className, "NSObject"]
        }
    }

    // MARK: - Finishing

    /// The archive's `bplist00` bytes with `root` as `$top.root`.
    package func archive(root: PropertyListValue) throws -> Data {
        if let (_, identity) = unfilled.min(by: { $0.key < $1.key }) {
            throw Failure(description: "the archive refers to '\(identity)', which was never written")
        }
        let top: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .int(100_000),
            "$top": .dictionary(["root": root]),
            "$objects": .array(objects),
        ])
        do {
            return try BinaryPropertyListWriter.data(top)
        } catch let failure as BinaryPropertyListWriter.Failure {
            throw Failure(description: failure.description)
        }
    }
}
