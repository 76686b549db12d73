import CDStoreJSON
import CDStoreModel
import Foundation

/// A record's fields sorted into the entity's attributes and relationships, after applying the JSON mapping.
/// Keys that name nothing are errors (with a suggestion); `_entity`, `_id` and `_ref` are cdstore's own keys.
struct PropertyValues {
    var attributes: [(Attribute, InputValue)] = []
    var relationships: [(Relationship, InputValue)] = []

    /// The attribute inputs by name, for error messages.
    var attributeInputs: [String: InputValue] {
        Dictionary(attributes.map { ($0.0.name, $0.1) }, uniquingKeysWith: { a, _ in a })
    }

    /// `properties` are the entity's attributes and relationships, inherited ones included, when the caller has
    /// them at hand (inserts look them up once per entity, not once per record).
    /// Keys that name nothing are counted in `ignoredKeys` when it is given (``UnknownKeyPolicy``), else errors.
    init(fields: [(String, InputValue)], entity: Entity, model: ManagedObjectModel,
         mapping: JSONMapping.EntityMapping?, properties: EntityProperties? = nil,
         ignoredKeys: IgnoredKeyTally? = nil) throws {
        let properties = properties ?? EntityProperties(entity, in: model)
        let attributes = properties.attributes
        let relationships = properties.relationships
        var remaining = fields.filter { !["_entity", "_id"].contains($0.0) }
        var seen: Set<String> = []
        for key in Set(remaining.map(\.0)) where remaining.filter({ $0.0 == key }).count > 1 {
            throw StoreError(.invalidInput, "given twice", entity: entity.name, property: key)
        }
        // Mapped model key paths through to-one relationships ("picture.data") build the related object's fields.
        var related: [String: [(String, InputValue)]] = [:]
        for (property, path) in mapping?.keyPaths.sorted(by: { $0.key < $1.key }) ?? [] where property.contains(".") {
            guard var value = Self.value(at: path, in: remaining) else { continue }
            remaining.removeAll { $0.0 == path[0] && path.count == 1 }
            // No value, no related object: `"picture": null` leaves the employee without one.
            if case .null = value { continue }
            if let folder = mapping?.files[property] { value = try Self.fileContents(value, folder: folder, entity: entity, property: property) }
            let components = property.split(separator: ".").map(String.init)
            related[components[0], default: []] = Self.setting(Array(components.dropFirst()), to: value,
                                                               in: related[components[0]] ?? [])
        }
        func take(_ property: String) throws -> InputValue? {
            var value: InputValue?
            if let path = mapping?.keyPaths[property], let found = Self.value(at: path, in: remaining) {
                remaining.removeAll { $0.0 == path[0] && path.count == 1 }
                value = found
            } else if let index = remaining.firstIndex(where: { $0.0 == property }) {
                value = remaining.remove(at: index).1
            } else if let fields = related[property] {
                value = .object(fields)
            }
            if let found = value, let folder = mapping?.files[property] {
                value = try Self.fileContents(found, folder: folder, entity: entity, property: property)
            }
            return value
        }
        for attribute in attributes {
            guard let value = try take(attribute.name) else { continue }
            guard !attribute.isTransient else {
                throw StoreError(.invalidInput, "transient attributes are not stored", entity: entity.name, property: attribute.name)
            }
            guard seen.insert(attribute.name).inserted else { continue }
            self.attributes.append((attribute, value))
        }
        for relationship in relationships {
            guard let value = try take(relationship.name), seen.insert(relationship.name).inserted else { continue }
            guard !relationship.isTransient else {
                throw StoreError(.invalidInput, "transient relationships are not stored", entity: entity.name,
                                 property: relationship.name)
            }
            self.relationships.append((relationship, value))
        }
        // Top-level keys consumed by nested key paths ("user" of "user.name") are not unknown.
        let consumed = Set(mapping?.keyPaths.values.compactMap(\.first) ?? [])
        if let ignoredKeys {
            // Inside the objects mapped key paths read from, the keys no path reads are ignored too ("contact.twitter").
            let mappedPaths = Set(mapping?.keyPaths.values.map { $0.joined(separator: ".") } ?? [])
            var ignored = remaining.map(\.0).filter { !consumed.contains($0) }
            for (key, value) in remaining where consumed.contains(key) {
                ignored += Self.unread(value, at: key, mappedPaths: mappedPaths)
            }
            ignoredKeys.ignore(ignored, entity: entity.name)
        } else if let unknown = remaining.first(where: { !consumed.contains($0.0) }) {
            let candidates = attributes.filter { !$0.isTransient }.map(\.name) + relationships.map(\.name)
            throw StoreError(.unknownName, "no such attribute or relationship" + Suggestion.didYouMean(unknown.0, among: candidates),
                             entity: entity.name, property: unknown.0)
        }
    }

    /// The dotted paths inside `value` (found at `path`) that no mapped key path reads.
    static func unread(_ value: InputValue, at path: String, mappedPaths: Set<String>) -> [String] {
        if mappedPaths.contains(path) { return [] }
        guard mappedPaths.contains(where: { $0.hasPrefix(path + ".") }) else { return [path] }
        guard case .object(let members) = value else { return [path] }
        return members.flatMap { unread($0.1, at: path + "." + $0.0, mappedPaths: mappedPaths) }
    }

    /// The bytes of the file a JSON value names, in `folder` (``JSONMapping/EntityMapping/files``), as the
    /// base64 text Binary values are read from; NULL stays NULL.
    static func fileContents(_ value: InputValue, folder: URL, entity: Entity, property: String) throws -> InputValue {
        if case .null = value { return value }
        guard case .string(let name) = value, !name.isEmpty else {
            throw StoreError(.invalidInput, "expected a file name in \(folder.path)", entity: entity.name, property: property)
        }
        let file = URL(fileURLWithPath: name, relativeTo: folder).standardizedFileURL
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let missing = !FileManager.default.fileExists(atPath: file.path)
            throw StoreError(.invalidInput, "file '\(name)' \(missing ? "is missing from" : "cannot be read in") \(folder.path)",
                             entity: entity.name, property: property)
        }
        return .string(data.base64EncodedString())
    }

    /// `fields` with `value` set at the key path `path` (nested objects made as needed).
    static func setting(_ path: [String], to value: InputValue, in fields: [(String, InputValue)]) -> [(String, InputValue)] {
        guard let first = path.first else { return fields }
        var fields = fields
        let index = fields.firstIndex { $0.0 == first }
        if path.count == 1 {
            if let index { fields[index].1 = value } else { fields.append((first, value)) }
            return fields
        }
        var inner: [(String, InputValue)] = []
        if let index, case .object(let existing) = fields[index].1 { inner = existing }
        let nested = InputValue.object(setting(Array(path.dropFirst()), to: value, in: inner))
        if let index { fields[index].1 = nested } else { fields.append((first, nested)) }
        return fields
    }

    /// The value at a dotted key path inside nested objects (`["user", "name"]`).
    static func value(at path: [String], in fields: [(String, InputValue)]) -> InputValue? {
        guard let first = path.first, let value = fields.first(where: { $0.0 == first })?.1 else { return nil }
        if path.count == 1 { return value }
        guard case .object(let nested) = value else { return nil }
        return Self.value(at: Array(path.dropFirst()), in: nested)
    }
}

/// An entity's attributes and relationships, inherited ones included, looked up once.
struct EntityProperties {
    let attributes: [Attribute]
    let relationships: [Relationship]

    init(_ entity: Entity, in model: ManagedObjectModel) {
        attributes = model.attributes(of: entity)
        relationships = model.relationships(of: entity)
    }
}
