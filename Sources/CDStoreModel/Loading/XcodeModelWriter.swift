import Foundation

/// Writes a model as Xcode's model source: the `contents` XML of an `.xcdatamodel` version, a version folder,
/// or a whole `.xcdatamodeld` bundle with `.xccurrentversion`. The reverse of ``XcodeModelReader``: every XML
/// attribute the reader reads is written, so reading the output gives back the model, with the same version
/// hashes and the same store layout.
///
/// ```swift
/// let compiled = try ModelLoader.load("App.momd")
/// try XcodeModelWriter.writeVersion(compiled.model, to: URL(fileURLWithPath: "App.xcdatamodel"))
/// ```
///
/// The output is what Xcode 15 writes (element and attribute names, their order, four-space indent, no
/// newline after `</model>`), checked against the corpus's real `contents` files: 216 of its 266 versions come
/// back byte for byte, less the diagram layout. The other 50 were saved by older Xcode versions (tools version
/// 10174 and below, or none), which wrote `userDefinedModelVersionIdentifier` first or empty `<userInfo/>`
/// elements; the writer uses the newer order and leaves empty user info out. Xcode writes an entity's children as attributes, relationships, fetched
/// properties, fetch indexes, uniqueness constraints, then user info (what the corpus shows). Entities and properties
/// keep the model's order (attributes, then relationships, then fetched properties, as Xcode groups them),
/// so equal models give equal bytes. Not written: the diagram layout (`<elements>`, which Xcode recreates),
/// and the `com.apple.syncservices.Syncable = NO` user-info entry momc adds to every element without
/// `syncable="YES"` (Xcode's compiler adds it again; in the editor it would look like an entry the developer
/// typed). What Xcode's format cannot say is listed by ``limitations(of:)``.
///
/// Core Data equivalent: none; Xcode's model editor saves this file (atomicbird/momdec does the same from a
/// compiled model on macOS).
package enum XcodeModelWriter {
    /// Model settings of a new Xcode 15.4 model, used for a model that was not read from XML (a compiled
    /// model, a store's cache, a JSON model without `fileSettings`).
    static let newModelSettings: [(String, String)] = [
        ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
        ("lastSavedToolsVersion", "22758"), ("systemVersion", "23E224"), ("minimumToolsVersion", "Automatic"),
        ("sourceLanguage", "Swift"),
    ]

    /// `<model>` attributes in the order Xcode writes them; other settings follow in name order, and the
    /// version identifier comes last.
    static let modelAttributeOrder = ["name", "type", "documentVersion", "lastSavedToolsVersion", "systemVersion",
                                      "minimumToolsVersion", "macOSVersion", "iOSVersion", "sourceLanguage",
                                      "usedWithSwiftData"]

    /// Settings a compiled model carries that are not XML attributes: the compiler's versions (coredata-format.md
    /// §4.4). Xcode sets them itself when it compiles the written model.
    static let compilerSettings: Set<String> = ["CDMCompilerToolVersion", "CDMCompilerXcodeVersion"]

    /// The `contents` XML of `model`, UTF-8.
    package static func contents(of model: ManagedObjectModel) -> Data {
        var model = model
        let composites = nameComposites(&model)
        var root = ModelXMLElement("model")
        root.attributes = modelAttributes(model)
        root.children = model.entities.map(entityElement) + composites
        root.children += model.fetchRequests.map { fetchRequestElement($0) }
        for configuration in model.configurations {
            var element = ModelXMLElement("configuration")
            element.set("name", configuration.name)
            element.flag("usedWithCloudKit", configuration.usedWithCloudKit)
            for member in configuration.entities {
                var memberElement = ModelXMLElement("memberEntity")
                memberElement.set("name", member)
                element.children.append(memberElement)
            }
            root.children.append(element)
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        root.render(into: &text)
        text.removeLast()  // Xcode ends the file right after `</model>`.
        return Data(text.utf8)
    }

    /// Writes `model` as an `.xcdatamodel` version folder: `folder/contents`. The folder is created if needed;
    /// an existing `contents` is replaced.
    package static func writeVersion(_ model: ManagedObjectModel, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try contents(of: model).write(to: folder.appendingPathComponent("contents"), options: .atomic)
    }

    /// Writes an `.xcdatamodeld` bundle: one `<name>.xcdatamodel/contents` per version, in the order given, and
    /// `.xccurrentversion` naming `current`, which must be one of the names.
    package static func writeBundle(_ versions: [(name: String, model: ManagedObjectModel)], current: String,
                                   to bundle: URL) throws {
        guard versions.contains(where: { $0.name == current }) else {
            throw ModelError(.unknownVersion, "the current version '\(current)' is not one of the versions written "
                             + "(\(versions.map(\.name).joined(separator: ", ")))", file: bundle.path)
        }
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for version in versions {
            try writeVersion(version.model, to: bundle.appendingPathComponent(version.name + ".xcdatamodel"))
        }
        try currentVersionFile(naming: current).write(to: bundle.appendingPathComponent(".xccurrentversion"),
                                                      options: .atomic)
    }

    /// The `.xccurrentversion` property list naming `version` (without `.xcdatamodel`), byte for byte as Xcode
    /// writes it.
    package static func currentVersionFile(naming version: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(plistEscaped(version)).xcdatamodel</string>
            </dict>
            </plist>

            """.utf8)
    }

    /// What `model` holds that an Xcode model cannot, one sentence each; empty when the written XML reads back
    /// to the same model. Each of these changes what reading the output gives.
    package static func limitations(of model: ManagedObjectModel) -> [String] {
        var found: [String] = []
        if model.versionIdentifiers.count > 1 {
            found.append("the model has \(model.versionIdentifiers.count) version identifiers and an Xcode model "
                         + "holds one: only '\(model.versionIdentifiers[0])' is written")
        }
        for entity in model.entities {
            for attribute in entity.attributes where attribute.isReadOnly != attribute.isDerived {
                found.append("entity '\(entity.name)', attribute '\(attribute.name)': "
                             + (attribute.isReadOnly ? "read-only without being derived" : "derived but not read-only")
                             + "; an Xcode model cannot say so, and the attribute's version hash changes")
            }
        }
        if containsNonXMLCharacters(model) {
            found.append("some names or values hold control characters XML cannot hold; they are written as U+FFFD")
        }
        return found
    }

    // MARK: Elements

    static func modelAttributes(_ model: ManagedObjectModel) -> [(name: String, value: String)] {
        var settings = model.fileSettings.filter { !compilerSettings.contains($0.key) && isXMLName($0.key) }
        // A model read from XML has its tool settings; any other gets those of a new model.
        if settings["lastSavedToolsVersion"] == nil {
            for (key, value) in newModelSettings where settings[key] == nil { settings[key] = value }
        }
        settings["userDefinedModelVersionIdentifier"] = nil
        var attributes: [(name: String, value: String)] = []
        for key in modelAttributeOrder {
            if let value = settings.removeValue(forKey: key) { attributes.append((key, value)) }
        }
        for key in settings.keys.sorted() { attributes.append((key, settings[key]!)) }
        if let identifier = model.versionIdentifiers.first {
            attributes.append(("userDefinedModelVersionIdentifier", identifier))
        }
        return attributes
    }

    static func entityElement(_ entity: Entity) -> ModelXMLElement {
        var element = ModelXMLElement("entity")
        element.set("name", entity.name)
        element.set("representedClassName", entity.className)
        element.flag("isAbstract", entity.isAbstract)
        element.set("parentEntity", entity.parentName)
        element.set("elementID", entity.renamingIdentifier)
        element.set("versionHashModifier", entity.versionHashModifier)
        element.yesNo("syncable", entity.syncable)
        element.set("codeGenerationType", entity.codeGenerationType)
        element.set("coreSpotlightDisplayNameExpression", entity.spotlightDisplayNameExpression)
        element.children += entity.attributes.map(attributeElement)
        element.children += entity.relationships.map(relationshipElement)
        element.children += entity.fetchedProperties.map(fetchedPropertyElement)
        element.children += entity.fetchIndexes.map(fetchIndexElement)
        if !entity.compoundIndexes.isEmpty {
            element.children.append(listElement("compoundIndexes", item: "compoundIndex", value: "index",
                                                entity.compoundIndexes))
        }
        if !entity.uniquenessConstraints.isEmpty {
            element.children.append(listElement("uniquenessConstraints", item: "uniquenessConstraint",
                                                value: "constraint", entity.uniquenessConstraints))
        }
        element.addUserInfo(userInfo(entity.userInfo, syncable: entity.syncable))
        return element
    }

    /// `<outer><item><value value="…"/>…</item>…</outer>`, the shape of uniqueness constraints and compound
    /// indexes.
    static func listElement(_ outer: String, item: String, value: String, _ lists: [[String]]) -> ModelXMLElement {
        var element = ModelXMLElement(outer)
        for list in lists {
            var itemElement = ModelXMLElement(item)
            for name in list {
                var valueElement = ModelXMLElement(value)
                valueElement.set("value", name)
                itemElement.children.append(valueElement)
            }
            element.children.append(itemElement)
        }
        return element
    }

    static func fetchIndexElement(_ index: FetchIndex) -> ModelXMLElement {
        var element = ModelXMLElement("fetchIndex")
        element.set("name", index.name)
        element.set("partialIndexPredicate", index.partialIndexPredicate)
        for indexed in index.elements {
            var child = ModelXMLElement("fetchIndexElement")
            child.set("property", indexed.property)
            child.set("expression", indexed.expression)
            child.set("expressionType", indexed.expressionType)
            child.set("type", indexed.type)
            child.set("order", indexed.isAscending ? "ascending" : "descending")
            element.children.append(child)
        }
        return element
    }

    /// Fetch request settings in the order Xcode writes them; others follow in name order.
    static let fetchRequestOptionOrder = ["resultType", "fetchLimit", "fetchOffset", "fetchBatchSize",
                                          "includeSubentities", "includePropertyValues", "includesPendingChanges",
                                          "returnObjectsAsFaults", "returnDistinctResults"]

    static func fetchRequestElement(_ request: FetchRequestTemplate, name: String? = nil) -> ModelXMLElement {
        var element = ModelXMLElement("fetchRequest")
        element.set("name", name ?? request.name)
        element.set("entity", request.entity)
        element.set("predicateString", request.predicate)
        var options = request.options.filter { isXMLName($0.key) && !["name", "entity", "predicateString"].contains($0.key) }
        for key in fetchRequestOptionOrder {
            if let value = options.removeValue(forKey: key) { element.set(key, value) }
        }
        for key in options.keys.sorted() { element.set(key, options[key]) }
        return element
    }

    /// `userInfo` without the entry momc adds to elements that are not marked syncable.
    static func userInfo(_ userInfo: [String: String], syncable: Bool?) -> [String: String] {
        guard syncable == nil, userInfo["com.apple.syncservices.Syncable"] == "NO" else { return userInfo }
        var trimmed = userInfo
        trimmed["com.apple.syncservices.Syncable"] = nil
        return trimmed
    }

    /// Whether `name` can be an XML attribute name (the settings dictionaries may hold any text).
    static func isXMLName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }

    static func plistEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func containsNonXMLCharacters(_ model: ManagedObjectModel) -> Bool {
        var text = ""
        var root = ModelXMLElement("model")
        root.children = model.entities.map(entityElement) + model.fetchRequests.map { fetchRequestElement($0) }
        root.attributes = modelAttributes(model)
        func collect(_ element: ModelXMLElement) {
            for (_, value) in element.attributes { text += value }
            element.children.forEach(collect)
        }
        collect(root)
        for configuration in model.configurations { text += configuration.name + configuration.entities.joined() }
        return !text.unicodeScalars.allSatisfy(ModelXMLElement.isXMLCharacter)
    }
}
