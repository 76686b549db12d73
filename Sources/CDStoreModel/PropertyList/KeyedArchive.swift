import Foundation

/// An NSKeyedArchiver archive, read as a graph: `$objects`, `$top`, UIDs, class records and the Foundation
/// collections (`NS.keys`/`NS.objects`, `NSKnownKeysDictionary1`).
///
/// Foundation on Linux has no NSKeyedUnarchiver for Core Data's classes, so the graph is walked by hand. An
/// object is addressed by its index in `$objects`; index 0 is `$null` (nil).
package struct KeyedArchive: Sendable {
    /// Why bytes are not a keyed archive.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// `$objects`.
    package let objects: [PropertyListValue]
    /// The index of the `$top` object named `root`.
    package let root: Int

    /// Parses an archive from property-list bytes.
    package init(data: Data) throws {
        try self.init(plist: try Self.readPlist(data))
    }

    private static func readPlist(_ data: Data) throws -> PropertyListValue {
        do {
            return try PropertyListReader.read(data)
        } catch let failure as PropertyListReader.Failure {
            throw Failure(description: failure.description)
        }
    }

    /// Reads an archive from an already parsed property list.
    package init(plist: PropertyListValue) throws {
        guard let top = plist.dictionaryValue else { throw Failure(description: "not a keyed archive (no dictionary at the top)") }
        guard case .string(let archiver)? = top["$archiver"], archiver == "NSKeyedArchiver" else {
            throw Failure(description: "not a keyed archive (no $archiver = NSKeyedArchiver)")
        }
        guard case .array(let objects)? = top["$objects"], !objects.isEmpty else {
            throw Failure(description: "keyed archive without $objects")
        }
        guard let topDict = top["$top"]?.dictionaryValue, case .uid(let root)? = topDict["root"] ?? topDict.values.first
        else { throw Failure(description: "keyed archive without a root object in $top") }
        guard root > 0, root < objects.count else { throw Failure(description: "keyed archive root \(root) out of range") }
        self.objects = objects
        self.root = root
    }

    // MARK: - Objects

    /// The index a value refers to, or nil for `$null`/non-references.
    package func reference(_ value: PropertyListValue?) -> Int? {
        guard case .uid(let n)? = value, n > 0, n < objects.count else { return nil }
        return n
    }

    /// A value with a UID replaced by the object it names (nil for `$null` or an absent value).
    package func resolve(_ value: PropertyListValue?) -> PropertyListValue? {
        guard let value else { return nil }
        if case .uid(let n) = value {
            guard n > 0, n < objects.count else { return nil }
            if case .string("$null") = objects[n] { return nil }
            return objects[n]
        }
        if case .null = value { return nil }
        return value
    }

    /// The fields of the object at `index` (an archived object is a dictionary).
    package func fields(_ index: Int) -> [String: PropertyListValue] {
        guard index > 0, index < objects.count, let d = objects[index].dictionaryValue else { return [:] }
        return d
    }

    /// The class name of an archived object (`$classname` of its `$class` record).
    package func className(_ index: Int) -> String? {
        guard let ref = reference(fields(index)["$class"]) else { return nil }
        guard case .string(let name)? = fields(ref)["$classname"] else { return nil }
        return name
    }

    /// The class names of an object's class and its superclasses (`$classes`).
    package func classChain(_ index: Int) -> [String] {
        guard let ref = reference(fields(index)["$class"]), case .array(let list)? = fields(ref)["$classes"] else {
            return className(index).map { [$0] } ?? []
        }
        return list.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    // MARK: - Values

    /// A string value: an inline string, or an archived NSString/NSMutableString.
    package func string(_ value: PropertyListValue?) -> String? {
        switch resolve(value) {
        case .string(let s)?: return s
        case .dictionary(let d)?:
            if case .string(let s)? = d["NS.string"] { return s }
            if case .data(let bytes)? = d["NS.bytes"] { return String(decoding: bytes, as: UTF8.self) }
            return nil
        default: return nil
        }
    }

    package func int(_ value: PropertyListValue?) -> Int64? {
        switch resolve(value) {
        case .int(let n)?: return n
        case .bool(let b)?: return b ? 1 : 0
        case .real(let d)? where d.rounded() == d && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }

    package func double(_ value: PropertyListValue?) -> Double? {
        switch resolve(value) {
        case .int(let n)?: return Double(n)
        case .real(let d)?: return d
        case .bool(let b)?: return b ? 1 : 0
        default: return nil
        }
    }

    package func bool(_ value: PropertyListValue?) -> Bool {
        switch resolve(value) {
        case .bool(let b)?: return b
        case .int(let n)?: return n != 0
        default: return false
        }
    }

    /// The elements of an archived NSArray/NSSet/NSOrderedSet (as raw values, usually UIDs).
    package func array(_ value: PropertyListValue?) -> [PropertyListValue]? {
        switch resolve(value) {
        case .array(let items)?: return items
        case .dictionary(let d)?:
            if case .array(let items)? = d["NS.objects"] { return items }
            return nil
        default: return nil
        }
    }

    /// The entries of an archived dictionary in archive order, keys as strings: NSDictionary
    /// (`NS.keys`/`NS.objects`) or `NSKnownKeysDictionary1` (`searchMapping.keys` + `values`).
    package func dictionary(_ value: PropertyListValue?) -> [(key: String, value: PropertyListValue)]? {
        guard let resolved = resolve(value) else { return nil }
        guard case .dictionary(let d) = resolved else { return nil }
        if case .array(let keys)? = d["NS.keys"], case .array(let values)? = d["NS.objects"] {
            return zip(keys, values).compactMap { k, v in string(k).map { ($0, v) } }
        }
        if let mapping = reference(d["searchMapping"]) {
            let keys = array(fields(mapping)["keys"]) ?? []
            let values = array(d["values"]) ?? []
            return zip(keys, values).compactMap { k, v in string(k).map { ($0, v) } }
        }
        if d["NS.keys"] == nil, d["$class"] != nil, d["NS.objects"] == nil { return [] }
        return nil
    }

    /// A dictionary of strings (userInfo); non-string values are described as text.
    package func stringDictionary(_ value: PropertyListValue?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, item) in dictionary(value) ?? [] {
            result[key] = string(item) ?? describe(item)
        }
        return result
    }

    /// A short text for a scalar value (numbers, booleans), used where a string was expected.
    package func describe(_ value: PropertyListValue?) -> String {
        switch resolve(value) {
        case .int(let n)?: return String(n)
        case .real(let d)?: return formatNumber(d)
        case .bool(let b)?: return b ? "YES" : "NO"
        case .string(let s)?: return s
        default: return ""
        }
    }
}

/// A double as text without a trailing ".0" for whole numbers.
func formatNumber(_ d: Double) -> String {
    if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
}
