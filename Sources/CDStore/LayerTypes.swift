import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import CDStoreSQLite
import CDStoreIO

// The types of the layers below that a user of `import CDStore` names. The layers themselves are not re-exported:
// what is listed here is public on purpose (docs/decisions/0001-layers.md says why each is).
public typealias Attribute = CDStoreModel.Attribute
public typealias ByteSink = CDStoreSQLite.ByteSink
public typealias ByteStream = CDStoreJSON.ByteStream
public typealias CDPredicateError = CDStorePredicate.CDPredicateError
public typealias CSVText = CDStoreSQLite.CSVText
public typealias DateParsing = CDStoreSQLite.DateParsing
public typealias DerivationHashing = CDStoreSQLite.DerivationHashing
public typealias Entity = CDStoreModel.Entity
public typealias EntityComparison = CDStoreSQLite.EntityComparison
public typealias FetchedObject = CDStoreSQLite.FetchedObject
public typealias GraphExport = CDStoreIO.GraphExport
public typealias GraphInput = CDStoreIO.GraphInput
public typealias HistoryChange = CDStoreSQLite.HistoryChange
public typealias HistoryQuery = CDStoreSQLite.HistoryQuery
public typealias HistoryTransaction = CDStoreSQLite.HistoryTransaction
public typealias InsertOptions = CDStoreSQLite.InsertOptions
public typealias InsertProgress = CDStoreSQLite.InsertProgress
public typealias InsertSummary = CDStoreSQLite.InsertSummary
public typealias JSONMapping = CDStoreSQLite.JSONMapping
public typealias JSONModelCodec = CDStoreModel.JSONModelCodec
public typealias JSONText = CDStoreSQLite.JSONText
public typealias LoadedModel = CDStoreModel.LoadedModel
public typealias ManagedObjectModel = CDStoreModel.ManagedObjectModel
public typealias MigrationOptions = CDStoreSQLite.MigrationOptions
public typealias ModelDiagram = CDStoreModel.ModelDiagram
public typealias ModelDiff = CDStoreSQLite.ModelDiff
public typealias ModelError = CDStoreModel.ModelError
public typealias ModelFileWriter = CDStoreModel.ModelFileWriter
public typealias ModelLoader = CDStoreModel.ModelLoader
public typealias ModelValidator = CDStoreModel.ModelValidator
public typealias ModelVersions = CDStoreModel.ModelVersions
public typealias ObjectDifference = CDStoreSQLite.ObjectDifference
public typealias ObjectFetchRequest = CDStoreSQLite.ObjectFetchRequest
public typealias ObjectID = CDStoreSQLite.ObjectID
public typealias ObjectValue = CDStoreSQLite.ObjectValue
public typealias PredicateNode = CDStorePredicate.PredicateNode
public typealias PredicateParser = CDStorePredicate.PredicateParser
public typealias PredicateValue = CDStorePredicate.PredicateValue
public typealias ProjectionProperty = CDStoreSQLite.ProjectionProperty
public typealias ProjectionRequest = CDStoreSQLite.ProjectionRequest
public typealias RecordInput = CDStoreIO.RecordInput
public typealias RecordSource = CDStoreSQLite.RecordSource
public typealias RecordStyle = CDStoreSQLite.RecordStyle
public typealias Relationship = CDStoreModel.Relationship
public typealias SequenceRecordSource = CDStoreSQLite.SequenceRecordSource
public typealias SkippedRecord = CDStoreSQLite.SkippedRecord
public typealias SortDescriptor = CDStoreSQLite.SortDescriptor
public typealias Store = CDStoreSQLite.Store
public typealias StoreDiff = CDStoreSQLite.StoreDiff
public typealias StoreDiffOptions = CDStoreSQLite.StoreDiffOptions
public typealias StoreError = CDStoreSQLite.StoreError
public typealias StoreInfo = CDStoreSQLite.StoreInfo
public typealias Suggestion = CDStoreSQLite.Suggestion
public typealias TransformableCoding = CDStoreSQLite.TransformableCoding
public typealias UnknownKeyPolicy = CDStoreSQLite.UnknownKeyPolicy
public typealias UpdateAssignment = CDStoreSQLite.UpdateAssignment
public typealias UpdateRequest = CDStoreSQLite.UpdateRequest
public typealias ValueText = CDStoreSQLite.ValueText
public typealias VersionHasher = CDStoreModel.VersionHasher
