import CDStoreIO
import CDStoreModel
import CDStorePredicate
import CDStoreEngine

// The types of the layers below that a user of `import CDStore` names. They are public on purpose (model
// descriptions for introspection, object IDs and values, requests, options and results); the layers themselves are
// not re-exported, and everything else in them is `package` (docs/decisions/0001-layers.md).

/// A managed object model: its entities and their inheritance (`CDStore.model`).
public typealias ManagedObjectModel = CDStoreModel.ManagedObjectModel

/// An entity of the model: its attributes, relationships, fetched properties, constraints and indexes.
public typealias Entity = CDStoreModel.Entity

/// An attribute of an entity: its type, optionality, default and validation rules.
public typealias Attribute = CDStoreModel.Attribute

/// An attribute's type (Integer 16 … Transformable, Composite), named as Xcode names it.
public typealias AttributeType = CDStoreModel.AttributeType

/// A relationship of an entity: destination, inverse, to-many and ordered, counts and delete rule.
public typealias Relationship = CDStoreModel.Relationship

/// What deleting an object does to the objects a relationship holds (Nullify, Cascade, Deny, No Action).
public typealias DeleteRule = CDStoreModel.DeleteRule

/// An object's identity, printed as Core Data prints it: `x-coredata://<store UUID>/<Entity>/p<key>`.
public typealias ObjectID = CDStoreEngine.ObjectID

/// A stored value as read back, typed by the model (see ``ObjectValueConvertible`` for Swift values).
public typealias ObjectValue = CDStoreEngine.ObjectValue



/// The `[c]`, `[d]`, `[n]` and `[l]` options of a string comparison in ``Criteria``.
public typealias ComparisonOptions = CDStorePredicate.ComparisonOptions




/// One attribute's new value for ``CDStore/Context/update(_:matching:set:assignments:dryRun:)``: `KEY=VALUE` or `KEY:=EXPRESSION`.
public typealias UpdateAssignment = CDStoreEngine.UpdateAssignment

/// What a delete removed: the objects asked for, and per entity what the delete rules reached.
public typealias DeleteResult = CDStoreEngine.DeleteResult

/// How far a bulk insert has got, as ``InsertOptions/progress`` reports it.
public typealias InsertProgress = CDStoreEngine.InsertProgress

/// What a bulk insert did: objects inserted, records skipped.
public typealias InsertSummary = CDStoreEngine.InsertSummary

/// The record formats inserts read (`RecordInput.Format`: JSON, NDJSON, CSV).
public typealias RecordInput = CDStoreIO.RecordInput

/// The shapes of a whole-graph export (`GraphExport.Shape`: one document, or NDJSON lines).
public typealias GraphExport = CDStoreIO.GraphExport

/// A finding of ``CDStore/verify()`` (or a problem ``CDStore/repair()`` fixed): its kind, severity, entity and message.
public typealias VerifyProblem = CDStoreEngine.VerifyProblem

/// A transaction of Core Data's persistent history: number, time, author, bundle, process and context.
public typealias HistoryTransaction = CDStoreEngine.HistoryTransaction

/// A change of a history transaction: inserted, updated or deleted object, updated properties, tombstone.
public typealias HistoryChange = CDStoreEngine.HistoryChange

/// What a store is (``CDStore/info(countingRows:)``): metadata, kind, model source, entities with their hashes and counts.
public typealias StoreInfo = CDStoreEngine.StoreInfo

/// What wrote a store and what it keeps beside the app's data: Core Data or SwiftData, CloudKit mirroring,
/// persistent history.
public typealias StoreKind = CDStoreEngine.StoreKind

/// A fetch index of an entity: one SQL index over properties or expressions (`NSFetchIndexDescription`).
public typealias FetchIndex = CDStoreModel.FetchIndex

extension Attribute {
    /// Whether the library reads and writes this Transformable attribute's values as JSON (keyed archives of the
    /// value transformers it knows: arrays, dictionaries, strings, numbers, dates) rather than as the archived bytes
    /// in base64.
    public var transformableValuesAreJSON: Bool { TransformableCoding.usesKeyedArchive(self) }
}
