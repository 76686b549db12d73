import CDStorePredicate
import Foundation

extension ObjectValue {
    /// The value as a predicate constant. Predicates have no data constants: data compares as its base64 text.
    package var predicateValue: PredicateValue {
        switch self {
        case .null, .dictionary: .null
        case .bool(let value): .bool(value)
        case .integer(let value): .int(value)
        case .double(let value), .decimal(let value): .double(value)
        case .float(let value): .double(Double(value))
        case .date(let seconds): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .string(let text): .string(text)
        case .uuid(let uuid): .string(uuid.uuidString)
        case .data(let data): .string(data.base64EncodedString())
        case .array(let values): .array(values.map(\.predicateValue))
        }
    }
}
