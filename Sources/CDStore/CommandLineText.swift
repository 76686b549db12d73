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

extension InsertOptions {
    /// These options reading input keys as a command line asks: through the model's JSON mapping (none with
    /// `withoutModelMapping`), overridden by the mapping file `mapFile` (its `"files"` folders relative to
    /// `baseDirectory`); keys that name no property refused (`refusingUnknownKeys`), ignored
    /// (`ignoringUnknownKeys`), or else ignored only under a mapping. `cdstore insert` and `seed` take
    /// `--no-mapping`, `--map`, `--strict` and `--ignore-unknown` so.
    package func mapping(_ model: ManagedObjectModel, withoutModelMapping: Bool, mapFile: Data?, baseDirectory: URL,
                         refusingUnknownKeys: Bool, ignoringUnknownKeys: Bool) throws -> InsertOptions {
        var mapping = withoutModelMapping ? JSONMapping() : JSONMapping.fromModel(model)
        if let mapFile {
            mapping = mapping.overridden(by: try JSONMapping.fromFile(mapFile, model: model, baseDirectory: baseDirectory))
        }
        var options = self
        options.mapping = mapping.isEmpty ? nil : mapping
        options.unknownKeys = refusingUnknownKeys ? .refused : ignoringUnknownKeys ? .ignored : .ignoredUnderMapping
        return options
    }
}
