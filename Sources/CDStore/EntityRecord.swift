import CDStorePredicate
import CDStoreEngine
import Foundation

/// A record type that knows its entity, so fetches and inserts need no entity name.
///
/// `cdstore model generate --language codable` writes one such struct per entity:
///
/// ```swift
/// public struct Employee: EntityRecord, Codable, Equatable, Sendable {
///     public static let entityName = "Employee"
///     public var objectID: ObjectID?
///     public var firstName: String
///     public var department: ObjectID?
/// }
/// let seniors = try ctx.fetch(Employee.self, matching: Criteria.greaterThanOrEqual("age", 50).sorted(by: ["lastName"]))
/// let id = try ctx.insert(Employee(firstName: "Bo", department: sales))
/// ```
///
/// Core Data equivalent: the entity name of an `NSManagedObject` subclass (`entity().name`).
public protocol EntityRecord {
    /// The name of the entity whose objects the type holds.
    static var entityName: String { get }
}

/// A stored value as itself: generated records hold Transformable values (arrays, dictionaries, strings,
/// numbers) as `ObjectValue`. Written back, arrays and dictionaries are archived as Core Data archives them;
/// dates and data inside them are tagged `{"$date": …}` / `{"$data": …}` so they stay dates and data.
extension ObjectValue: ObjectValueConvertible {
    /// The value itself.
    public var objectValue: ObjectValue { self }
    /// The value itself.
    public init?(objectValue: ObjectValue) { self = objectValue }
}

/// `Codable` for generated records used with other coders (JSON): the value as JSON, dates as seconds since
/// 2001 in `{"$date": …}`, data as base64 in `{"$data": …}`.
extension ObjectValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([ObjectValue].self) {
            self = .array(values)
        } else {
            let members = try container.decode([String: ObjectValue].self)
            if members.count == 1, case .double(let seconds)? = members["$date"] {
                self = .date(seconds)
            } else if members.count == 1, case .string(let text)? = members["$data"], let data = Data(base64Encoded: text) {
                self = .data(data)
            } else {
                self = .dictionary(members.sorted { $0.key < $1.key })
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value), .decimal(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .date(let value): try container.encode(["$date": value])
        case .uuid(let value): try container.encode(value.uuidString)
        case .data(let value): try container.encode(["$data": value.base64EncodedString()])
        case .array(let values): try container.encode(values)
        case .dictionary(let pairs): try container.encode(Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
        }
    }
}

/// Stored values as record fields, the form inserts read (see `TransformableCoding`'s rule for input).
enum ObjectValueInput {
    static func input(_ value: ObjectValue, nested: Bool) -> InputValue {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .double(let value), .decimal(let value): return .double(value)
        case .float(let value): return .double(Double(value))
        case .string(let value): return .string(value)
        case .uuid(let value): return .string(value.uuidString)
        case .date(let value): return nested ? .object([("$date", .double(value))]) : .double(value)
        // At the top level a Transformable's undecodable bytes (base64 of an archive) go back unchanged.
        case .data(let value):
            return nested ? .object([("$data", .string(value.base64EncodedString()))]) : .string(value.base64EncodedString())
        case .array(let values): return .array(values.map { input($0, nested: true) })
        case .dictionary(let pairs): return .object(pairs.map { ($0.0, input($0.1, nested: true)) })
        }
    }
}
