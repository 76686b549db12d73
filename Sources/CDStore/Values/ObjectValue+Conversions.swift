import CDStoreJSON
import CDStorePredicate
import CDStoreEngine
import Foundation

extension ObjectValue {
    /// The value as insert and update read a record field: dates as seconds since 2001, data as base64 text,
    /// UUIDs as their text, as a JSON record would give them (inside arrays and dictionaries, dates and data are
    /// tagged `{"$date": …}` / `{"$data": …}` so that a Transformable value keeps them; ``ObjectValueInput``).
    var inputValue: InputValue { ObjectValueInput.input(self, nested: false) }
}
