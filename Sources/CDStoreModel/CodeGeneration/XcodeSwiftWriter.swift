/// Xcode's Swift classes for a model ("Create NSManagedObject Subclass…", or codegen "Class Definition"): per
/// entity `<Class>+CoreDataClass.swift` and `<Class>+CoreDataProperties.swift`, laid out as Xcode lays them out.
///
/// Xcode 16 and later write `public import Foundation` / `public import CoreData` (Swift 6 access-level imports)
/// with a public typealias per file (`<Class>CoreDataClassSet = NSSet`, `<Class>CoreDataPropertiesSet = NSSet`)
/// that uses each import publicly; Xcode 15 and earlier write plain imports and no typealias. Everything below
/// the imports is the same in both. Properties come in the model file's order, attributes then relationships.
/// `extension X : Identifiable` is written for root entities only: a sub-entity's class inherits the
/// conformance, and Swift rejects a redundant one.
/// Fetched properties get no declaration, as in Xcode.
struct XcodeSwiftWriter {
    let model: ManagedObjectModel
    let header: CodeHeader
    let xcode: Int

    private var modernImports: Bool { xcode >= 16 }

    func files() -> [ModelCodeFile] {
        model.entities.flatMap { entity in [classFile(entity), propertiesFile(entity)] }
    }

    private func imports() -> String {
        modernImports ? "public import Foundation\npublic import CoreData\n" : "import Foundation\nimport CoreData\n"
    }

    func classFile(_ entity: Entity) -> ModelCodeFile {
        let name = CodeNames.className(entity)
        let fileName = "\(name)+CoreDataClass.swift"
        let parent = model.parent(of: entity).map(CodeNames.className) ?? "NSManagedObject"
        var text = header.comment(fileName) + imports() + "\n"
        if modernImports { text += "public typealias \(name)CoreDataClassSet = NSSet\n\n" }
        if !CodeNames.isModuleQualified(entity) { text += "@objc(\(name))\n" }
        text += "public class \(name): \(parent) {\n\n}\n"
        return ModelCodeFile(name: fileName, text: text)
    }

    func propertiesFile(_ entity: Entity) -> ModelCodeFile {
        let name = CodeNames.className(entity)
        let fileName = "\(name)+CoreDataProperties.swift"
        var text = header.comment(fileName) + imports() + "\n\n"
        if modernImports { text += "public typealias \(name)CoreDataPropertiesSet = NSSet\n\n" }
        text += "extension \(name) {\n\n"
        text += "    @nonobjc public class func fetchRequest() -> NSFetchRequest<\(name)> {\n"
        text += "        return NSFetchRequest<\(name)>(entityName: \(CodeNames.swiftString(entity.name)))\n    }\n\n"
        for attribute in entity.attributes {
            text += "    @NSManaged public var \(CodeNames.swiftIdentifier(attribute.name)): \(XcodeTypes.swift(attribute))\n"
        }
        for relationship in entity.relationships {
            text += "    @NSManaged public var \(CodeNames.swiftIdentifier(relationship.name)): \(type(of: relationship))\n"
        }
        text += "\n}\n"
        for relationship in entity.relationships where relationship.isToMany {
            text += "\n" + accessors(relationship, of: name)
        }
        if entity.parentName == nil || model.parent(of: entity) == nil {
            text += "\nextension \(name) : Identifiable {\n\n}\n"
        }
        return ModelCodeFile(name: fileName, text: text)
    }

    private func type(of relationship: Relationship) -> String {
        guard relationship.isToMany else { return CodeNames.className(of: relationship.destination, in: model) + "?" }
        return relationship.isOrdered ? "NSOrderedSet?" : "NSSet?"
    }

    /// The "Generated accessors" extension of a to-many: 4 methods, or 10 for an ordered one.
    private func accessors(_ relationship: Relationship, of className: String) -> String {
        let key = CodeNames.capitalized(relationship.name)
        let value = CodeNames.className(of: relationship.destination, in: model)
        let set = relationship.isOrdered ? "NSOrderedSet" : "NSSet"
        var methods: [(String, String)] = []
        if relationship.isOrdered {
            methods += [
                ("insertObject:in\(key)AtIndex:", "insertInto\(key)(_ value: \(value), at idx: Int)"),
                ("removeObjectFrom\(key)AtIndex:", "removeFrom\(key)(at idx: Int)"),
                ("insert\(key):atIndexes:", "insertInto\(key)(_ values: [\(value)], at indexes: NSIndexSet)"),
                ("remove\(key)AtIndexes:", "removeFrom\(key)(at indexes: NSIndexSet)"),
                ("replaceObjectIn\(key)AtIndex:withObject:", "replace\(key)(at idx: Int, with value: \(value))"),
                ("replace\(key)AtIndexes:with\(key):", "replace\(key)(at indexes: NSIndexSet, with values: [\(value)])"),
            ]
        }
        methods += [
            ("add\(key)Object:", "addTo\(key)(_ value: \(value))"),
            ("remove\(key)Object:", "removeFrom\(key)(_ value: \(value))"),
            ("add\(key):", "addTo\(key)(_ values: \(set))"),
            ("remove\(key):", "removeFrom\(key)(_ values: \(set))"),
        ]
        var text = "// MARK: Generated accessors for \(relationship.name)\nextension \(className) {\n\n"
        for (selector, signature) in methods {
            text += "    @objc(\(selector))\n    @NSManaged public func \(signature)\n\n"
        }
        return text + "}\n"
    }
}
