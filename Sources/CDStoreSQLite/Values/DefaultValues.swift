import CDStoreModel
import GRDB

/// The value a new object gets for an attribute the input left out: the model's default, else NULL.
enum DefaultValues {
    static func storedDefault(for attribute: Attribute) throws -> DatabaseValue {
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval {
            return interval.databaseValue
        }
        guard let text = attribute.defaultValue else { return .null }
        do {
            return try AttributeCoding.storedValue(.string(text), for: attribute)
        } catch let error as StoreError {
            throw StoreError(.invalidInput, "the model's default value is not valid: \(error.message)",
                             property: attribute.name)
        }
    }
}
