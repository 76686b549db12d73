/// Xcode's Objective-C classes for a model: per entity `<Class>+CoreDataClass.h/.m` and
/// `<Class>+CoreDataProperties.h/.m`, laid out as Xcode lays them out.
///
/// The class header forward-declares the classes its relationships point to (`@class A, B;`, sorted) and imports
/// the parent's class header for a sub-entity; the properties header declares `+fetchRequest`, one `@property`
/// per attribute and relationship in the model file's order, and the KVC accessors Core Data implements for each
/// to-many (4, or 10 for an ordered one). Types follow ``XcodeTypes/objc(_:)``.
struct XcodeObjCWriter {
    let model: ManagedObjectModel
    let header: CodeHeader

    func files() -> [ModelCodeFile] {
        model.entities.flatMap { entity in
            [classHeader(entity), classImplementation(entity), propertiesHeader(entity), propertiesImplementation(entity)]
        }
    }

    func classHeader(_ entity: Entity) -> ModelCodeFile {
        let name = CodeNames.className(entity)
        let fileName = "\(name)+CoreDataClass.h"
        var text = header.comment(fileName) + "#import <Foundation/Foundation.h>\n"
        let parent = model.parent(of: entity)
        if let parent {
            text += "#import \"\(CodeNames.className(parent))+CoreDataClass.h\"\n"
        } else {
            text += "#import <CoreData/CoreData.h>\n"
        }
        text += "\n"
        let destinations = Set(entity.relationships.map { CodeNames.className(of: $0.destination, in: model) }).sorted()
        if !destinations.isEmpty { text += "@class \(destinations.joined(separator: ", "));\n\n" }
        text += "NS_ASSUME_NONNULL_BEGIN\n\n"
        text += "@interface \(name) : \(parent.map(CodeNames.className) ?? "NSManagedObject")\n\n@end\n\n"
        text += "NS_ASSUME_NONNULL_END\n\n#import \"\(name)+CoreDataProperties.h\"\n"
        return ModelCodeFile(name: fileName, text: text)
    }

    func classImplementation(_ entity: Entity) -> ModelCodeFile {
        let name = CodeNames.className(entity)
        let fileName = "\(name)+CoreDataClass.m"
        let text = header.comment(fileName) + "#import \"\(name)+CoreDataClass.h\"\n\n@implementation \(name)\n\n@end\n"
        return ModelCodeFile(name: fileName, text: text)
    }

    func propertiesHeader(_ entity: Entity) -> ModelCodeFile {
        let name = CodeNames.className(entity)
        let fileName = "\(name)+CoreDataProperties.h"
        var text = header.comment(fileName) + "#import \"\(name)+CoreDataClass.h\"\n\n\nNS_ASSUME_NONNULL_BEGIN\n\n"
        text += "@interface \(name) (CoreDataProperties)\n\n"
        text += "+ (NSFetchRequest<\(name) *> *)fetchRequest NS_SWIFT_NAME(fetchRequest());\n\n"
        for attribute in entity.attributes {
            let (attributes, type) = XcodeTypes.objc(attribute)
            text += "@property (\(attributes)) \(type)\(attribute.name);\n"
        }
        for relationship in entity.relationships {
            let destination = CodeNames.className(of: relationship.destination, in: model)
            let type = relationship.isToMany
                ? "\(relationship.isOrdered ? "NSOrderedSet" : "NSSet")<\(destination) *> *" : "\(destination) *"
            text += "@property (nullable, nonatomic, retain) \(type)\(relationship.name);\n"
        }
        text += "\n@end\n\n"
        let toMany = entity.relationships.filter(\.isToMany)
        if !toMany.isEmpty {
            text += "@interface \(name) (CoreDataGeneratedAccessors)\n\n"
            text += toMany.map(accessors).joined(separator: "\n")
            text += "\n@end\n\n"
        }
        text += "NS_ASSUME_NONNULL_END\n"
        return ModelCodeFile(name: fileName, text: text)
    }

    func propertiesImplementation(_ entity: Entity) -> ModelCodeFile {
        let name = CodeNames.className(entity)
        let fileName = "\(name)+CoreDataProperties.m"
        var text = header.comment(fileName) + "#import \"\(name)+CoreDataProperties.h\"\n\n"
        text += "@implementation \(name) (CoreDataProperties)\n\n"
        text += "+ (NSFetchRequest<\(name) *> *)fetchRequest {\n"
        text += "\treturn [NSFetchRequest fetchRequestWithEntityName:@\"\(entity.name)\"];\n}\n\n"
        for property in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
            text += "@dynamic \(property);\n"
        }
        text += "\n@end\n"
        return ModelCodeFile(name: fileName, text: text)
    }

    private func accessors(_ relationship: Relationship) -> String {
        let key = CodeNames.capitalized(relationship.name)
        let value = CodeNames.className(of: relationship.destination, in: model) + " *"
        var lines: [String] = []
        if relationship.isOrdered {
            lines += [
                "- (void)insertObject:(\(value))value in\(key)AtIndex:(NSUInteger)idx;",
                "- (void)removeObjectFrom\(key)AtIndex:(NSUInteger)idx;",
                "- (void)insert\(key):(NSArray<\(value)> *)value atIndexes:(NSIndexSet *)indexes;",
                "- (void)remove\(key)AtIndexes:(NSIndexSet *)indexes;",
                "- (void)replaceObjectIn\(key)AtIndex:(NSUInteger)idx withObject:(\(value))value;",
                "- (void)replace\(key)AtIndexes:(NSIndexSet *)indexes with\(key):(NSArray<\(value)> *)values;",
            ]
        }
        let set = relationship.isOrdered ? "NSOrderedSet" : "NSSet"
        lines += [
            "- (void)add\(key)Object:(\(value))value;",
            "- (void)remove\(key)Object:(\(value))value;",
            "- (void)add\(key):(\(set)<\(value)> *)values;",
            "- (void)remove\(key):(\(set)<\(value)> *)values;",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
