import SwiftUI
import SwiftData

@main struct NotesApp: App {
    var sharedModelContainer: ModelContainer = {
        let schema = Schema([Folder.self])
        let configuration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: false)
        return try! ModelContainer(for: schema, configurations: [configuration])
    }()
    var body: some Scene { WindowGroup { ContentView() }.modelContainer(for: [Folder.self, Item.self]) }
}

@Model class Folder {
    var name: String
    @Relationship(deleteRule: .deny, minimumModelCount: 0, maximumModelCount: 10) var items: [Item]
    var parent: Folder?
    @Relationship(inverse: \Folder.parent) var children: [Folder] = []
    init(name: String) { self.name = name; self.items = [] }
}

@Model class Item {
    @Attribute(.externalStorage, .preserveValueOnDeletion, hashModifier: "v2") var photo: Data?
    @Attribute(.transformable(by: "ColorTransformer")) var color: Data?
    var folders: [Folder] = []
    var flag: Bool = true
    var weight: Float = -1.5
    var small: Int16 = -3
    var link: URL?
    var uuid = UUID()
    init() {}
}

@Model class Unused { var x: Int = 0; init() {} }
