import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// Reports every external-data file a row names that is missing from the store's `_EXTERNAL_DATA` folder
    /// (Core Data fails reading such a value with error 134185): one problem per missing file, naming the entity,
    /// the attribute and the object.
    func checkExternalData(_ db: Database, tables: Set<String>,
                           report: (VerifyProblem.Kind, String, String) -> Void) throws {
        guard let location = externalDataLocation else { return }
        for entity in model.entities {
            guard let layout = layout.entity(named: entity.name), tables.contains(layout.table) else { continue }
            for attribute in entity.attributes where attribute.allowsExternalBinaryDataStorage && attribute.type == .binary {
                guard let column = layout.attributeColumns[attribute.name] else { continue }
                // Only the references: 0x02 ‖ file name ‖ 0x00 (coredata-format.md §1.5).
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT Z_PK, Z_ENT, \(column) FROM \(layout.table) \
                    WHERE \(entityCondition(layout, alias: layout.table)) AND substr(\(column), 1, 1) = x'02' ORDER BY Z_PK
                    """)
                while let row = try rows.next() {
                    guard let value: Data = row[2], case .external(let name) = ExternalBinaryData.reference(value) else { continue }
                    let file = location.directory.appendingPathComponent(name)
                    guard name.contains("/") || !FileManager.default.fileExists(atPath: file.path) else { continue }
                    let number: Int = row[1] ?? layout.number
                    let owner = hierarchyHasSubentities(layout) ? self.layout.entity(number: number)?.name ?? entity.name : entity.name
                    let object = ObjectID(storeUUID: metadata.uuid, entity: owner, primaryKey: row[0])
                    report(.externalData, "\(entity.name).\(attribute.name)",
                           "object \(object): external data file '\(name)' is missing from \(location.directory.path) "
                           + "(Core Data error 134185)")
                }
            }
        }
    }
}
