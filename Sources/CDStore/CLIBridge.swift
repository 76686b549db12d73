import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import CDStoreSQLite
import CDStoreIO

// What the command line still reaches in the layers below without a public library call: each name here is work
// left for issue 23 (a library call a Swift user can make too, then the CLI on it). Package-only, so no library user
// sees them; the list only ever shrinks (docs/decisions/0001-layers.md).

// Public until the API was cut to the library's own requests (Criteria, the string forms of fetch, project and
// update). The CLI builds Criteria now; `fetch`, `export` and the REPL take the request Criteria make to stream rows
// to the printers.
package typealias ObjectFetchRequest = CDStoreSQLite.ObjectFetchRequest

package typealias ByteSink = CDStoreSQLite.ByteSink
package typealias CSVText = CDStoreSQLite.CSVText
package typealias EntityComparison = CDStoreSQLite.EntityComparison
package typealias FetchedObject = CDStoreSQLite.FetchedObject
package typealias JSONModelCodec = CDStoreModel.JSONModelCodec
package typealias JSONText = CDStoreSQLite.JSONText
package typealias LoadedModel = CDStoreModel.LoadedModel
package typealias ModelDiagram = CDStoreModel.ModelDiagram
package typealias ModelDiff = CDStoreSQLite.ModelDiff
package typealias ModelFileWriter = CDStoreModel.ModelFileWriter
package typealias ModelLoader = CDStoreModel.ModelLoader
package typealias ModelValidator = CDStoreModel.ModelValidator
package typealias ModelVersions = CDStoreModel.ModelVersions
package typealias ObjectDifference = CDStoreSQLite.ObjectDifference
package typealias RecordStyle = CDStoreSQLite.RecordStyle
package typealias Store = CDStoreSQLite.Store
package typealias StoreDiff = CDStoreSQLite.StoreDiff
package typealias StoreDiffOptions = CDStoreSQLite.StoreDiffOptions
package typealias StoreInfo = CDStoreSQLite.StoreInfo
package typealias ValueText = CDStoreSQLite.ValueText
