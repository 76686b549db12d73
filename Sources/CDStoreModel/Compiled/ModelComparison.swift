import Foundation

/// Brings a model to the form in which an Xcode model and the model compiled from it are equal: everything
/// the compiler drops, adds or rewrites is made the same on both sides. Apply it to both models, then `==`.
///
/// Each rule and why it is needed:
/// 1. Order: entities, properties, fetch requests, configurations (and their members) and version
///    identifiers sorted by name. Archives keep these in hash-table order; Xcode writes names sorted.
/// 2. `fileSettings` cleared: XML tool settings (`lastSavedToolsVersion`, `sourceLanguage`, …) are not
///    compiled; the archive has compiler versions (`CDMCompilerToolVersion`) instead.
/// 3. `codeGenerationType`, `syncable`, `usesScalarValueType` cleared: Xcode code-generation settings that
///    momc does not write. The userInfo entry `com.apple.syncservices.Syncable` momc adds for entities without
///    `syncable="YES"` is removed.
/// 4. `customClassName` kept only for Transformable attributes: momc writes it as `NSAttributeValueClassName`
///    only there; other types get their standard value class.
/// 5. `isIndexed` cleared when a one-element fetch index covers the attribute: momc marks such attributes
///    `NSIsIndexed`.
/// 6. Numeric default values compared as numbers (`0` vs `0.0`), limits likewise; class name
///    `NSManagedObject` and renaming identifiers equal to the name count as not set; an inverse entity
///    without an inverse name is dropped.
/// 7. Predicates and derivation expressions printed in Foundation's form with `expressionFormatter` (for
///    example cdstore's predicate parser and printer): the XML has the text as typed (`oneToMany.@count`,
///    `true == true`), the archive the parsed objects. Derivation expressions then get momc's collection
///    operator rewrite (`oneToMany.@count` → `count:(oneToMany)`, as the archive holds it).
/// 8. Fetch request options equal to Xcode's defaults are dropped (includeSubentities, includePropertyValues,
///    returnObjectsAsFaults, includesPendingChanges YES; returnDistinctResults NO; resultType, fetchLimit,
///    fetchBatchSize, fetchOffset 0), and so are includePropertyValues for object-ID requests and
///    returnObjectsAsFaults for dictionary requests, which momc overrides.
/// 9. Fetched properties' request is named `fetchedPropertyFetchRequest` (Xcode's name; archives have none).
package enum ModelComparison {
    /// `model` in comparison form; `expressionFormatter` prints an expression (`isPredicate` false) or a
    /// predicate as Foundation does, returning nil when it cannot parse the text.
    package static func normalised(_ model: ManagedObjectModel,
                                  expressionFormatter: ((_ text: String, _ isPredicate: Bool) -> String?)? = nil)
        -> ManagedObjectModel {
        func format(_ text: String?, predicate: Bool) -> String? {
            guard let text else { return nil }
            return expressionFormatter?(text, predicate) ?? text
        }
        var m = model
        m.fileSettings = [:]
        m.versionIdentifiers.sort(by: utf16Order)
        m.entities = model.entities.map { e in
            var e = e
            e.codeGenerationType = nil
            e.syncable = nil
            e.userInfo["com.apple.syncservices.Syncable"] = nil
            if e.className == "NSManagedObject" { e.className = nil }
            if e.renamingIdentifier == e.name { e.renamingIdentifier = nil }
            let singleIndexed = Set(e.fetchIndexes.filter { $0.elements.count == 1 }.compactMap { $0.elements[0].property })
            e.fetchIndexes = e.fetchIndexes.map { index in
                var index = index
                index.partialIndexPredicate = format(index.partialIndexPredicate, predicate: true)
                index.elements = index.elements.map { element in
                    var element = element
                    element.expression = format(element.expression, predicate: false)
                    return element
                }
                return index
            }
            e.attributes = e.attributes.map { a in
                var a = a
                a.syncable = nil
                a.usesScalarValueType = nil
                a.userInfo["com.apple.syncservices.Syncable"] = nil
                if a.type != .transformable { a.customClassName = nil }
                if singleIndexed.contains(a.name) { a.isIndexed = false }
                if a.renamingIdentifier == a.name { a.renamingIdentifier = nil }
                if a.type.isNumeric {
                    a.defaultValue = a.defaultValue.map { number($0, integer: a.type.isInteger) }
                    a.minValue = a.minValue.map { number($0, integer: a.type.isInteger) }
                    a.maxValue = a.maxValue.map { number($0, integer: a.type.isInteger) }
                } else if a.type == .string || a.type == .binary {
                    a.minValue = a.minValue.map { number($0, integer: true) }
                    a.maxValue = a.maxValue.map { number($0, integer: true) }
                }
                a.derivationExpression = format(a.derivationExpression, predicate: false)
                    .map(VersionHasher.rewritingCollectionOperators)
                return a
            }.sorted { utf16Order($0.name, $1.name) }
            e.relationships = e.relationships.map { r in
                var r = r
                r.syncable = nil
                r.userInfo["com.apple.syncservices.Syncable"] = nil
                if r.renamingIdentifier == r.name { r.renamingIdentifier = nil }
                if r.inverseName == nil { r.inverseEntity = nil }
                return r
            }.sorted { utf16Order($0.name, $1.name) }
            e.fetchedProperties = e.fetchedProperties.map { p in
                var p = p
                p.userInfo["com.apple.syncservices.Syncable"] = nil
                p.fetchRequest = request(p.fetchRequest, format: format)
                p.fetchRequest.name = "fetchedPropertyFetchRequest"
                return p
            }.sorted { utf16Order($0.name, $1.name) }
            return e
        }.sorted { utf16Order($0.name, $1.name) }
        m.fetchRequests = model.fetchRequests.map { request($0, format: format) }.sorted { utf16Order($0.name, $1.name) }
        m.configurations = model.configurations.map { c in
            var c = c
            c.entities.sort(by: utf16Order)
            return c
        }.sorted { utf16Order($0.name, $1.name) }
        return m
    }

    private static func request(_ r: FetchRequestTemplate,
                                format: (String?, Bool) -> String?) -> FetchRequestTemplate {
        var r = r
        r.predicate = format(r.predicate, true)
        let defaults = ["includeSubentities": "YES", "includePropertyValues": "YES", "returnObjectsAsFaults": "YES",
                        "includesPendingChanges": "YES", "returnDistinctResults": "NO", "resultType": "0",
                        "fetchLimit": "0", "fetchBatchSize": "0", "fetchOffset": "0"]
        for (key, value) in defaults where r.options[key] == value { r.options[key] = nil }
        if r.options["resultType"] == "1" { r.options["includePropertyValues"] = nil }
        if r.options["resultType"] == "2" { r.options["returnObjectsAsFaults"] = nil }
        return r
    }

    private static func number(_ text: String, integer: Bool) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let value = Double(trimmed) else { return text }
        if integer || (value.rounded() == value && abs(value) < 1e15) { return formatNumber(value) }
        return String(value)
    }
}
