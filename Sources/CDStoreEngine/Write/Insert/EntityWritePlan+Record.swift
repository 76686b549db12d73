import CDStoreJSON
import CDStoreModel
internal import GRDB

/// A record's fields sorted by an entity's write plan: attribute inputs by column slot, relationship inputs in
/// record order.
struct PlannedFields {
    var attributes: [InputValue?]
    var relationships: [(Relationship, InputValue)] = []

    /// The attribute inputs by name, for error messages.
    func attributeInputs(_ plan: EntityWritePlan) -> [String: InputValue] {
        var inputs: [String: InputValue] = [:]
        for (slot, value) in attributes.enumerated() { if let value { inputs[plan.columns[slot].attribute.name] = value } }
        return inputs
    }
}

extension EntityWritePlan {
    /// Sorts `fields` into attributes and relationships. Keys that name nothing are errors (with a suggestion);
    /// `_entity` and `_id` are cdstore's own keys. With a JSON mapping the keys are read through it.
    func sort(_ fields: [(String, InputValue)], model: ManagedObjectModel) throws -> PlannedFields {
        var sorted = PlannedFields(attributes: Array(repeating: nil, count: columns.count))
        if let mapping {
            // The mapping reads a composite whole (`"home": "address"`) or by element (`"home.city": "town"`), so
            // composites are spread into their element columns only once it has been applied.
            let input = compositeAttributes.isEmpty ? fields : CompositeInput.folding(fields, composites: compositeAttributes)
            let values = try PropertyValues(fields: input, entity: entity, model: model, mapping: mapping,
                                            properties: properties, ignoredKeys: ignoredKeys)
            var attributes = values.attributes.map { ($0.0.name, $0.1) }
            if !compositeAttributes.isEmpty { attributes = try expandingComposites(attributes) }
            for (name, value) in attributes {
                if let slot = attributeSlots[name] ?? nil { sorted.attributes[slot] = value }
            }
            sorted.relationships = values.relationships
            return sorted
        }
        let fields = compositeAttributes.isEmpty ? fields : try expandingComposites(fields)
        let reuse = fields.count == lastKeys.count && zip(fields, lastKeys).allSatisfy { $0.0 == $1 }
        if !reuse {
            let places = try fields.map { try place(of: $0.0) }
            lastKeys = fields.map(\.0)
            lastPlaces = places
            lastInputOfSlot = Self.inputOfSlot(places, columns: columns.count)
        }
        var unknown: [String] = []
        for (index, (key, value)) in fields.enumerated() {
            switch lastPlaces[index] {
            case .attribute(let slot):
                guard sorted.attributes[slot] == nil else { throw givenTwice(key) }
                sorted.attributes[slot] = value
            case .relationship(let relationship):
                guard !sorted.relationships.contains(where: { $0.0.name == key }) else { throw givenTwice(key) }
                sorted.relationships.append((relationship, value))
            case .ignored:
                break
            case .unknown:
                if fields.lazy.filter({ $0.0 == key }).count > 1 { throw givenTwice(key) }
                unknown.append(key)
            }
        }
        if let ignoredKeys, !unknown.isEmpty {
            ignoredKeys.ignore(unknown, entity: entity.name)
        } else if let unknown = unknown.first {
            throw StoreError(.unknownName, "no such attribute or relationship" + Suggestion.didYouMean(unknown, among: candidateNames),
                             entity: entity.name, property: unknown)
        }
        return sorted
    }

    /// The field index of each column slot when every field of a record with these places is an attribute,
    /// each given once (-1: left out); nil otherwise.
    private static func inputOfSlot(_ places: [FieldPlace], columns: Int) -> [Int]? {
        var inputs = Array(repeating: -1, count: columns)
        for (index, place) in places.enumerated() {
            guard case .attribute(let slot) = place, inputs[slot] < 0 else { return nil }
            inputs[slot] = index
        }
        return inputs
    }

    /// What `row(sort(fields), validatingMissing: true)` gives, made straight from `fields` when they are the
    /// attributes the last record sorted had, in the same order, each given once: records of a file nearly always
    /// are. Nil when they are not (or a mapping or composite attribute is in play): sort them.
    ///
    /// The reading thread of a bulk load makes every flat row this way; sorting into ``PlannedFields`` first cost it
    /// 2,100 instructions per record.
    func directRow(_ fields: [(String, InputValue)]) throws -> [DatabaseValue]? {
        guard mapping == nil, compositeAttributes.isEmpty, let inputs = lastInputOfSlot, fields.count == lastKeys.count
        else { return nil }
        for (field, key) in zip(fields, lastKeys) where field.0 != key { return nil }
        var row: [DatabaseValue] = []
        row.reserveCapacity(columns.count)
        for slot in columns.indices {
            let input = inputs[slot]
            row.append(try columnValue(input >= 0 ? fields[input].1 : nil, slot: slot, validatingMissing: true))
        }
        return row
    }

    private func place(of key: String) throws -> FieldPlace {
        if let slot = attributeSlots[key] {
            guard let slot else {
                throw StoreError(.invalidInput, "transient attributes are not stored", entity: entity.name, property: key)
            }
            return .attribute(slot)
        }
        if let relationship = relationships[key] {
            guard !relationship.isTransient else {
                throw StoreError(.invalidInput, "transient relationships are not stored", entity: entity.name, property: key)
            }
            return .relationship(relationship)
        }
        return key == "_entity" || key == "_id" ? .ignored : .unknown
    }

    private func givenTwice(_ key: String) -> StoreError {
        StoreError(.invalidInput, "given twice", entity: entity.name, property: key)
    }

    /// The stored values of a new object's columns: the given attributes converted, the others their defaults.
    /// Given values are validated, and left-out ones too with `validatingMissing` (a record that may merge into an
    /// existing object keeps that object's values for what it leaves out; ``validateMissing(_:_:)`` checks them
    /// once the object is known to be new).
    func row(_ fields: PlannedFields, validatingMissing: Bool) throws -> [DatabaseValue] {
        var row: [DatabaseValue] = []
        row.reserveCapacity(columns.count)
        for slot in columns.indices {
            row.append(try columnValue(fields.attributes[slot], slot: slot, validatingMissing: validatingMissing))
        }
        return row
    }

    /// The stored value of column `slot` for `input` (converted and validated), or its default when the record
    /// leaves it out (validated with `validatingMissing`); errors name the entity. Inlined: as a call it cost the
    /// reading thread of a bulk load 290 instructions per record.
    @inline(__always)
    private func columnValue(_ input: InputValue?, slot: Int, validatingMissing: Bool) throws -> DatabaseValue {
        let column = columns[slot]
        do {
            if let input {
                let stored = try storedValue(input, column)
                try check(stored, column)
                return stored
            }
            let stored = try column.defaultValue.get()
            if validatingMissing { try check(stored, column) }
            return stored
        } catch var error as StoreError {
            error.entity = entity.name
            throw error
        }
    }

    /// Validates the left-out attributes of `row` (their defaults).
    func validateMissing(_ row: [DatabaseValue], _ fields: PlannedFields) throws {
        for slot in columns.indices where fields.attributes[slot] == nil {
            let column = columns[slot]
            do {
                try check(row[slot], column)
            } catch var error as StoreError {
                error.entity = entity.name
                throw error
            }
        }
    }

    /// What ``AttributeCoding/storedValue(_:for:)`` gives, for the inputs bulk loads are made of, without its
    /// general dispatch; anything else goes to it.
    private func storedValue(_ input: InputValue, _ column: Column) throws -> DatabaseValue {
        switch (column.kind, input) {
        case (.integer(let range), .integer(let i)) where range.contains(i):
            return i.databaseValue
        case (.integer(let range), .string(let text)):
            if let i = Int64(text), range.contains(i) { return i.databaseValue }
        case (.double, .double(let d)) where !d.isNaN:
            return d.databaseValue
        case (.double, .integer(let i)):
            return Double(i).databaseValue
        case (.double, .string(let text)):
            if let d = DecimalText.double(text) ?? Double(text), !d.isNaN { return d.databaseValue }
        case (.string, .string(let text)):
            return text.databaseValue
        case (.date, .string(let text)):
            if let seconds = DateParsing.secondsSince2001(text), seconds.isFinite { return seconds.databaseValue }
        case (.boolean, .bool(let b)):
            return (b ? 1 : 0).databaseValue
        case (.boolean, .string(let text)):
            switch text {
            case "1", "true": return 1.databaseValue
            case "0", "false": return 0.databaseValue
            default: break
            }
        default:
            break
        }
        return try AttributeCoding.storedValue(input, for: column.attribute)
    }

    private func check(_ stored: DatabaseValue, _ column: Column) throws {
        // A derived attribute without a value is Core Data's to compute (now(), aggregates kept by triggers).
        if column.isDerived && stored.isNull { return }
        try column.rule.validate(stored)
    }
}
