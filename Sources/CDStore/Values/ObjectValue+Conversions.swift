import CDStoreJSON
import CDStorePredicate
import CDStoreEngine
import Foundation

extension ObjectValue {
    /// The value as insert and update read a record field: dates as seconds since 2001, data as base64 text,
    /// UUIDs as their text, as a JSON record would give them (inside arrays and dictionaries, dates and data are
    /// tagged `{"$date": …}` / `{"$data": …}` so that a Transformable value keeps them; ``ObjectValueInput``).
    var inputValue: InputValue { ObjectValueInput.input(self, nested: false) }

    /// The value as a predicate constant. Predicates have no data constants: data compares as its base64 text.
    var predicateValue: PredicateValue {
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
