import CDStoreModel
import CDStoreSQLite
import Foundation

// What a command line needs from the library to read and word its own arguments the library's way: package,
// so that the CLI does not reach into the layers below for them.

extension CDStore {
    /// The date `text` names in the forms a record's dates take (`2024-05-01`, `2024-05-01T12:00:00Z`, or
    /// seconds since 2001-01-01); nil when it names none. `cdstore history --since` reads its dates so.
    package static func date(fromText text: String) -> Date? {
        DateParsing.secondsSince2001(text).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}

extension ManagedObjectModel {
    /// What the library says of a name that is no entity of the model, with the nearest names
    /// (`no entity 'Employe' in the model; did you mean 'Employee'?`), for a command's own check of an argument.
    package func noEntityMessage(_ name: String) -> String {
        "no entity '\(name)' in the model" + Suggestion.didYouMean(name, among: entities.map(\.name))
    }
}

extension Attribute {
    /// Whether the library reads and writes this Transformable attribute's values as JSON (keyed archives of the
    /// transformers it knows) rather than as base64 blobs, as `cdstore model show` says.
    package var valuesAreJSON: Bool { TransformableCoding.usesKeyedArchive(self) }
}
