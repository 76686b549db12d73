import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation

/// Turns the ``StoredBytes`` of a store diff's rows back into values, for the differences it reports, and
/// decides whether two values whose bytes differ are equal all the same.
struct DiffValues {
    /// How identities of each entity (by the name they carry) show: key names and the attributes to read the
    /// values with (none for `Z_PK`).
    private let identityKeys: [String: (names: [String], attributes: [Attribute])]
    /// Per store, the entity names identities carry, by the store model's entity name.
    private let shownNames: (a: [String: String], b: [String: String])

    init(plans: [EntityPlan]) {
        var keys: [String: (names: [String], attributes: [Attribute])] = [:]
        var namesA: [String: String] = [:], namesB: [String: String] = [:]
        for plan in plans {
            keys[plan.comparison.entity] = (plan.comparison.key.attributes, plan.shown.key.map(\.attribute))
            if let side = plan.a { namesA[side.entity.name] = plan.comparison.entity }
            if let side = plan.b { namesB[side.entity.name] = plan.comparison.entity }
        }
        identityKeys = keys
        shownNames = (namesA, namesB)
    }

    /// The key of a row of `side`, under the key's names.
    func key(_ row: DiffCursor.Row, _ plan: EntityPlan, _ side: EntityPlan.Side) -> [(String, ObjectValue)] {
        Array(zip(plan.comparison.key.attributes, values(row.key, side.key.map(\.attribute))))
    }

    /// Every compared value of a row of store A (`inA`) or B, under the shown names.
    func fields(_ row: DiffCursor.Row, _ plan: EntityPlan, inA: Bool, _ diff: StoreDiff) throws -> [(String, ObjectValue)] {
        let ranges = StoredBytes.ranges(row.fields)
        let (side, store, names) = inA ? (plan.a!, diff.a, shownNames.a) : (plan.b!, diff.b, shownNames.b)
        return try plan.fieldNames.indices.map { i in
            (plan.fieldNames[i], try field(i, of: row.fields, at: ranges[i].lowerBound, plan, side, in: store, names: names))
        }
    }

    /// The compared properties whose values differ between a row of A and its match in B: (name, A's, B's).
    func changes(_ rowA: DiffCursor.Row, _ rowB: DiffCursor.Row, _ plan: EntityPlan, _ diff: StoreDiff) throws
        -> [(name: String, a: ObjectValue, b: ObjectValue)] {
        let (sideA, sideB) = (plan.a!, plan.b!)
        let rangesA = StoredBytes.ranges(rowA.fields), rangesB = StoredBytes.ranges(rowB.fields)
        var changes: [(name: String, a: ObjectValue, b: ObjectValue)] = []
        for i in plan.fieldNames.indices where rowA.fields[rangesA[i]] != rowB.fields[rangesB[i]] {
            let valueA = try field(i, of: rowA.fields, at: rangesA[i].lowerBound, plan, sideA, in: diff.a, names: shownNames.a)
            let valueB = try field(i, of: rowB.fields, at: rangesB[i].lowerBound, plan, sideB, in: diff.b, names: shownNames.b)
            // Relationship bytes are canonical: different bytes are different objects. Attribute bytes may differ
            // for equal values (a REAL within the tolerance, an external file under another name, a transformable
            // archived by another archiver, a type changed between versions).
            if i < sideA.attributes.count, Self.same(valueA, valueB, tolerance: diff.options.tolerance) { continue }
            changes.append((plan.fieldNames[i], valueA, valueB))
        }
        return changes
    }

    // MARK: - Decoding

    private func values(_ bytes: [UInt8], _ attributes: [Attribute]) -> [ObjectValue] {
        StoredBytes.ranges(bytes).enumerated().map { i, range in
            let stored = StoredBytes.databaseValue(bytes, at: range.lowerBound)
            guard i < attributes.count else { return Int64.fromDatabaseValue(stored).map(ObjectValue.integer) ?? .null }
            return AttributeCoding.objectValue(stored, for: attributes[i])
        }
    }

    private func field(_ i: Int, of bytes: [UInt8], at offset: Int, _ plan: EntityPlan, _ side: EntityPlan.Side, in store: Store,
                       names: [String: String]) throws -> ObjectValue {
        if i < side.attributes.count {
            return try AttributeCoding.objectValue(StoredBytes.databaseValue(bytes, at: offset), for: side.attributes[i],
                                                   externalData: store.externalDataLocation, entity: side.entity.name)
        }
        let relationship = side.relationships[i - side.attributes.count]
        let destination = names[relationship.destination] ?? relationship.destination
        let related = StoredBytes.pieces(bytes, at: offset).map { identity($0, destination: destination) }
        return plan.relationshipForms[i - side.attributes.count].toMany ? .array(related) : (related.first ?? .null)
    }

    /// A related object as its key, with `_entity` when it is not of the relationship's destination entity.
    private func identity(_ bytes: [UInt8], destination: String) -> ObjectValue {
        let length = StoredBytes.length(bytes, at: 0)
        let name = String(decoding: bytes[4..<(4 + length)], as: UTF8.self)
        let rest = Array(bytes[(4 + length)...])
        if name.hasPrefix("?") {
            return .dictionary([("_entity", .string(String(name.dropFirst()))), ("_missing", values(rest, []).first ?? .null)])
        }
        let key = identityKeys[name] ?? (["Z_PK"], [])
        let pairs = Array(zip(key.names, values(rest, key.attributes)))
        return .dictionary((name == destination ? [] : [("_entity", .string(name))]) + pairs)
    }

    // MARK: - Equality

    /// Whether two decoded values are equal for a diff: numbers by value (Double, Float and Decimal values within
    /// `tolerance`), strings byte for byte, and values whose type changed between model versions by their text.
    static func same(_ a: ObjectValue, _ b: ObjectValue, tolerance: Double) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case let (.integer(x), .integer(y)): return x == y
        case let (.string(x), .string(y)): return x.utf8.elementsEqual(y.utf8)
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, tolerance: tolerance) }
        case let (.dictionary(x), .dictionary(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && same($0.1, $1.1, tolerance: tolerance) }
        default:
            break
        }
        if let x = number(a), let y = number(b) {
            if x == y || (x.isNaN && y.isNaN) { return true }
            return (isFloating(a) || isFloating(b)) && abs(x - y) <= tolerance
        }
        if a == b { return true }
        // A type changed between the two models (Integer 32 → String): equal when both read the same.
        return a.isText != b.isText && ValueText.plain(a) == ValueText.plain(b)
    }

    private static func number(_ value: ObjectValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .bool(let b): b ? 1 : 0
        case .double(let d), .decimal(let d): d
        case .float(let f): Double(f)
        default: nil
        }
    }

    private static func isFloating(_ value: ObjectValue) -> Bool {
        switch value {
        case .double, .decimal, .float: true
        default: false
        }
    }
}
