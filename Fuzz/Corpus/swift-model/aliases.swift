import SwiftData
typealias Money = Decimal
typealias Ids = [String]
enum SchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self, Version.self] }
    @Model final class Item { var price: Money = 0; var tags: Ids = []; var kind: Kind?; enum Kind: String, Codable { case a } }
}
typealias Latest = SchemaV1
typealias Item = Latest.Item
extension Latest { @Model final class Version { var number: Int = 1; var items: [Item] = [] } }
let container = try ModelContainer(for: App.Item.self)
