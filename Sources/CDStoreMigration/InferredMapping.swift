import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation

/// How an attribute's stored values become values of a new attribute type.
///
/// The conversions cdstore infers (everything else is refused with Core Data error 134190):
///
/// | from | to | rule |
/// |---|---|---|
/// | same type | same type | kept |
/// | Integer 16/32/64 | a wider integer | kept |
/// | Integer 16/32/64 | a narrower integer | kept; refused when a stored value is out of the new range |
/// | Boolean | Integer 16/32/64 | kept (0/1) |
/// | Integer 16/32/64 | Boolean | kept; refused when a stored value is not 0 or 1 |
/// | Integer 16/32/64, Boolean | Double, Decimal | converted; refused when \|value\| > 2^53 |
/// | Integer 16/32/64, Boolean | Float | converted; refused when \|value\| > 2^24 |
/// | Float | Double, Decimal | kept |
/// | Double | Float | kept (Core Data treats Float and Double as one column type; Core Data rounds to Float when reading) |
/// | Double | Decimal | kept |
/// | Double, Float, Decimal | Integer 16/32/64 | converted; refused when a value has a fraction or is out of range |
/// | Integer 16/32/64 | String | decimal text |
/// | String | Integer 16/32/64 | converted; refused when a value is not an integer's canonical decimal text or out of range |
/// | String | Double | converted; refused when a value is not the canonical text of a number |
///
/// Not inferred: Date, Binary, UUID, URI, Transformable and Decimal → Double to or from anything else, Boolean ↔
/// String, floating → String (SQLite's text form of a REAL keeps 15 digits, so it is not lossless).
struct AttributeConversion {
    /// SQL that converts the source value `x`.
    var convert: (String) -> String
    /// SQL condition true for a non-NULL source value `x` that cannot be converted; nil when every value can.
    var invalid: ((String) -> String)?
    /// Why a value is refused, for the message.
    var invalidReason: String = ""
    /// Whether the stored values are kept as they are.
    var isIdentity: Bool

    static var identity: AttributeConversion { AttributeConversion(convert: { $0 }, invalid: nil, isIdentity: true) }

    static func checked(_ invalid: @escaping (String) -> String, _ reason: String,
                        convert: @escaping (String) -> String = { $0 }) -> AttributeConversion {
        AttributeConversion(convert: convert, invalid: invalid, invalidReason: reason, isIdentity: false)
    }

    static func between(_ range: ClosedRange<Int64>) -> (String) -> String {
        { "(\($0) < \(range.lowerBound) OR \($0) > \(range.upperBound))" }
    }

    /// The conversion from `source` to `destination`, nil when the change is not inferable.
    static func from(_ source: AttributeType, to destination: AttributeType) -> AttributeConversion? {
        if source == destination { return .identity }
        let floating: Set<AttributeType> = [.double, .float, .decimal]
        switch (source, destination) {
        case let (s, d) where s.isInteger && d.isInteger:
            let (sr, dr) = (s.integerRange!, d.integerRange!)
            if dr.lowerBound <= sr.lowerBound && sr.upperBound <= dr.upperBound { return .identity }
            return .checked(between(dr), "out of range for \(d.rawValue)")
        case let (.boolean, d) where d.isInteger:
            return .identity
        case let (s, .boolean) where s.isInteger:
            return .checked({ "\($0) NOT IN (0, 1)" }, "not 0 or 1")
        case let (s, d) where (s.isInteger || s == .boolean) && (d == .double || d == .decimal):
            return .checked(between(-(1 << 53)...(1 << 53)), "not exact as a floating-point number",
                            convert: { "CAST(\($0) AS REAL)" })
        case let (s, .float) where s.isInteger || s == .boolean:
            return .checked(between(-(1 << 24)...(1 << 24)), "not exact as a Float", convert: { "CAST(\($0) AS REAL)" })
        case (.float, .double), (.float, .decimal), (.double, .float), (.double, .decimal):
            return .identity
        case let (s, d) where floating.contains(s) && d.isInteger:
            let range = d.integerRange!
            return .checked({ "(\($0) <> CAST(\($0) AS INTEGER) OR \(between(range)($0)))" },
                            "has a fraction or is out of range for \(d.rawValue)", convert: { "CAST(\($0) AS INTEGER)" })
        case let (s, .string) where s.isInteger:
            return AttributeConversion(convert: { "CAST(\($0) AS TEXT)" }, invalid: nil, isIdentity: false)
        case let (.string, d) where d.isInteger:
            let range = d.integerRange!
            return .checked({ "(CAST(CAST(\($0) AS INTEGER) AS TEXT) IS NOT \($0) OR \(between(range)("CAST(\($0) AS INTEGER)")))" },
                            "not an integer in range for \(d.rawValue)", convert: { "CAST(\($0) AS INTEGER)" })
        case (.string, .double):
            return .checked({ "(CAST(CAST(\($0) AS REAL) AS TEXT) IS NOT \($0) AND CAST(CAST(\($0) AS INTEGER) AS TEXT) IS NOT \($0))" },
                            "not a number", convert: { "CAST(\($0) AS REAL)" })
        default:
            return nil
        }
    }
}

/// Errors of migration, with Core Data's error numbers in the text.
enum MigrationError {
    /// A change that cannot be inferred (134190).
    static func notInferable(_ reasons: [String], from: String, to: String) -> StoreError {
        StoreError(.modelMismatch, "cannot migrate the store from \(from) to \(to): the mapping cannot be inferred "
                   + "(Core Data error 134190; it needs a mapping model, 134140): " + reasons.joined(separator: "; "))
            .coreData(134190)
    }

    /// A change the data does not allow (134190 too: Core Data reports inferred-mapping failures with it).
    static func dataRefused(_ reason: String, from: String, to: String) -> StoreError {
        StoreError(.modelMismatch, "cannot migrate the store from \(from) to \(to) (Core Data error 134190): \(reason); "
                   + "the store is unchanged").coreData(134190)
    }
}

/// The static part of an inferred mapping: which destination entity comes from which source entity, and the
/// changes that cannot be inferred whatever the data (type changes outside ``AttributeConversion``'s table,
/// relationships whose destination moves to an unrelated entity).
struct InferredMapping {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    let matcher: ModelMatcher
    /// Destination entity name → source entity name.
    let entities: [String: String]
    /// For a step that runs a mapping model (``MappedStep``): per destination entity, where each property's value
    /// comes from. A property the mapping does not name gets no value (nil here means: inferred by name).
    var overrides: [String: [String: PropertySource]]?

    /// Where a destination property's value comes from in a mapped step.
    enum PropertySource: Equatable {
        /// The source property of this name (`$source.name`, or the relationship's source instances).
        case property(String)
        /// SQL over the source row `{s}` (a computed value expression, read from a temporary table).
        case sql(String)
        /// No value: the destination's default (or NULL).
        case none
    }

    /// A mapping given whole (a mapping model's), not inferred: `entities` destination → source entity.
    init(source: ManagedObjectModel, destination: ManagedObjectModel, entities: [String: String],
         overrides: [String: [String: PropertySource]]) {
        self.source = source
        self.destination = destination
        self.matcher = ModelMatcher(source: source, destination: destination)
        self.entities = entities
        self.overrides = overrides
    }

    /// The override for `property` of the destination entity `entity` (looked up on the entity, then its
    /// ancestors, as a subentity's mapping lists inherited properties too).
    func override(_ property: String, of entity: String) -> PropertySource? {
        guard let overrides else { return nil }
        var current = destination.entity(named: entity)
        while let e = current {
            if let found = overrides[e.name]?[property] { return found }
            if overrides[e.name] != nil { return PropertySource.none }
            current = destination.parent(of: e)
        }
        return PropertySource.none
    }

    /// The source attribute the destination `attribute` of `entity` takes its value from.
    func sourceAttribute(for attribute: Attribute, of entity: String, in old: Entity) -> Attribute? {
        switch override(attribute.name, of: entity) {
        case nil: return matcher.sourceAttribute(for: attribute, in: old)
        case .property(let name)?: return source.attribute(name, of: old)
        case .sql?, PropertySource.none?: return nil
        }
    }

    /// The source relationship the destination `relationship` of `entity` takes its objects from.
    func sourceRelationship(for relationship: Relationship, of entity: String, in old: Entity) -> Relationship? {
        switch override(relationship.name, of: entity) {
        case nil: return matcher.sourceRelationship(for: relationship, in: old)
        case .property(let name)?: return source.relationship(name, of: old)
        case .sql?, PropertySource.none?: return nil
        }
    }

    /// Infers the mapping, or throws 134190 listing every change that cannot be inferred.
    init(source: ManagedObjectModel, destination: ManagedObjectModel, sourceName: String, destinationName: String) throws {
        self.source = source
        self.destination = destination
        let matcher = ModelMatcher(source: source, destination: destination)
        self.matcher = matcher
        var entities: [String: String] = [:]
        var used: Set<String> = []
        for entity in destination.entities {
            if let old = matcher.sourceEntity(for: entity), used.insert(old.name).inserted { entities[entity.name] = old.name }
        }
        self.entities = entities
        guard !entities.isEmpty || source.entities.isEmpty || destination.entities.isEmpty else {
            // Not a version of the same model: inferring would drop every object. Core Data would do it; cdstore
            // refuses, as for a store opened with the wrong model.
            throw StoreError(.modelMismatch, "the store was saved with a different model (Core Data error 134100): no entity of "
                             + "\(destinationName) corresponds to one of the store's (\(source.entities.map(\.name).sorted().joined(separator: ", ")))")
                .coreData(134100)
        }
        var reasons: [String] = []
        for entity in destination.entities {
            guard let old = entities[entity.name].flatMap({ source.entity(named: $0) }) else { continue }
            for attribute in entity.attributes where !attribute.isTransient {
                // Inherited source attributes count: properties can move up or down the hierarchy.
                guard let previous = matcher.sourceAttribute(for: attribute, in: old) else { continue }
                if AttributeConversion.from(previous.type, to: attribute.type) == nil {
                    reasons.append("attribute \(entity.name).\(attribute.name) changes type from \(previous.type.rawValue) to "
                                   + "\(attribute.type.rawValue), which is not an inferable conversion")
                }
            }
            for relationship in entity.relationships where !relationship.isTransient {
                guard let previous = matcher.sourceRelationship(for: relationship, in: old) else { continue }
                guard let newDestination = destination.entity(named: relationship.destination),
                      let oldDestination = source.entity(named: previous.destination) else { continue }
                let mapped = entities[newDestination.name].flatMap { source.entity(named: $0) }
                let related = mapped.map { m in
                    m.name == oldDestination.name || source.ancestors(of: m).contains { $0.name == oldDestination.name }
                        || source.ancestors(of: oldDestination).contains { $0.name == m.name }
                } ?? false
                if !related {
                    reasons.append("relationship \(entity.name).\(relationship.name) now leads to \(newDestination.name) instead of "
                                   + "\(oldDestination.name), an unrelated entity")
                }
            }
        }
        if !reasons.isEmpty { throw MigrationError.notInferable(reasons, from: sourceName, to: destinationName) }
    }
}
