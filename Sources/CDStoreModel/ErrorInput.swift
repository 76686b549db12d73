/// Which input of a call an error of the layers is about: the predicate, the sort keys, the grouping, a model, the
/// root key path of a document, …. Errors carry it as data (``ModelError/input``, and `StoreError.input` and the
/// record readers' errors above this layer) so that their messages never name an option: the library maps it to
/// `CDStoreError.Input` (this type, under the library's name), and a command line names its own flag for it in one
/// table.
///
/// It lives in the lowest layer whose errors need it, so that every layer above can set it.
public enum ErrorInput: String, Sendable, CaseIterable {
    /// The predicate selecting objects.
    case predicate
    /// The values of the predicate's `$variables`.
    case variables
    /// The sort keys.
    case sort
    /// The limit of a fetch.
    case limit
    /// The offset of a fetch.
    case offset
    /// The properties of a projection.
    case properties
    /// The grouping of a projection.
    case groupBy
    /// The filter on a projection's groups.
    case having
    /// The relationships to prefetch or include.
    case includes
    /// The model: a file, a store's own, or none where one is needed.
    case model
    /// Which version of a model bundle.
    case modelVersion
    /// Whether opening a store may migrate it.
    case migration
    /// How long to wait for another connection's lock.
    case busyTimeout
    /// A file of records.
    case recordFile
    /// The key path of the records inside a JSON document.
    case root
    /// A mapping of input keys to properties.
    case mapping
    /// The values to set (an update's assignments).
    case assignments
    /// The entities a comparison of stores is narrowed to.
    case comparedEntities
    /// The attributes that match objects across stores.
    case matchKeys
    /// The properties a comparison of stores leaves out.
    case ignoredProperties
}

extension ErrorInput {
    /// How a description names the input, in the library's words (`predicate`, `grouping`), placed before the
    /// message; nil where the message says it already (a model, a record file, the busy timeout). A command line
    /// puts its flag (`--where`, `--group-by`) in the same place instead.
    package var label: String? {
        switch self {
        case .predicate: "predicate"
        case .variables: "variables"
        case .sort: "sort"
        case .limit: "limit"
        case .offset: "offset"
        case .properties: "properties"
        case .groupBy: "grouping"
        case .having: "group filter"
        case .includes: "prefetch"
        case .root: "root key path"
        case .mapping: "mapping"
        case .assignments: "update"
        case .comparedEntities: "entities"
        case .matchKeys: "keys"
        case .ignoredProperties: "ignored"
        case .model, .modelVersion, .migration, .busyTimeout, .recordFile: nil
        }
    }
}
