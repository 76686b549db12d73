import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

/// The derived attributes (`NSDerivedAttributeDescription`) of a store that lacks Core Data's triggers for them,
/// computed at the end of each write transaction.
///
/// Core Data keeps a derived column with SQL triggers it adds to the store (`Z_DA_<table>_<entity>_<attribute>…`,
/// ``CoreDataTriggerFunctions``), and fills the column of existing rows with one `UPDATE` when it adds them.
/// cdstore does not write those triggers into the stores it creates; it runs that `UPDATE` instead, after the
/// transaction's own writes, for the forms Core Data derives in SQL:
/// - a to-one's attribute, `department.name`, and `lowercase:`, `uppercase:` or `canonical:` of an attribute or
///   of a to-one's attribute;
/// - a to-many's `@count` (also written `count:(items)`) and `@sum` of an attribute, `items.@sum.price`.
///
/// Only rows whose value changes are written, so persistent history records the derived values that changed.
/// `now()`, the time each object was last saved, is set by temporary triggers on cdstore's own connection (gone
/// when it closes, never in the file) on every insert and on every update of `Z_OPT`, which each write of an
/// object bumps, as Core Data's triggers set it; an insert that gives the value keeps it, so that an export
/// imported again is the same graph. Other forms (aggregates but `@count` and `@sum`, longer key paths) are left as
/// written. A store with Core Data's triggers keeps its values through them. A migration ends with the same
/// statements for the destination model, as Core Data fills a derived column it adds. Why cdstore computes the
/// values rather than writing Core Data's triggers: docs/decisions/0018-derived-attributes.md.
package struct DerivedValues: Sendable {
    package let statements: [String]
    /// `CREATE TEMP TRIGGER` statements for the `now()` attributes.
    let nowTriggers: [String]
    static let nowFunction = "cdstore_now"
    static let nowTriggerPrefix = "cdstore_now_"

    /// The statements for `model`'s derived attributes in `layout`; nil when there is nothing to compute.
    package init?(model: ManagedObjectModel, layout: StoreLayout) {
        var statements: [String] = []
        var nowTriggers: [String] = []
        for entity in model.entities {
            guard let owner = layout.entity(named: entity.name) else { continue }
            for attribute in entity.attributes where !attribute.isTransient {
                guard let text = attribute.derivationExpression, let column = owner.attributeColumns[attribute.name],
                      let expression = try? PredicateParser.parseExpression(text) else { continue }
                if case .function("now", let arguments) = expression, arguments.isEmpty {
                    for (event, on, unless) in [("insert", "INSERT", " AND NEW.\(column) IS NULL"), ("update", "UPDATE OF Z_OPT", "")] {
                        nowTriggers.append("CREATE TEMP TRIGGER IF NOT EXISTS \(Self.nowTriggerPrefix)\(owner.table)_\(column)_\(event) "
                                           + "AFTER \(on) ON main.\(owner.table) FOR EACH ROW "
                                           + "WHEN NEW.Z_ENT BETWEEN \(owner.number) AND \(owner.subtreeMax)\(unless) BEGIN "
                                           + "UPDATE \(owner.table) SET \(column) = \(Self.nowFunction)() WHERE Z_PK = NEW.Z_PK; END")
                    }
                    continue
                }
                guard let value = Self.sql(expression, entity: entity, owner: owner, model: model, layout: layout) else { continue }
                statements.append("UPDATE \(owner.table) AS t SET \(column) = \(value) "
                                  + "WHERE t.Z_ENT BETWEEN \(owner.number) AND \(owner.subtreeMax) AND t.\(column) IS NOT \(value)")
            }
        }
        guard !statements.isEmpty || !nowTriggers.isEmpty else { return nil }
        self.statements = statements
        self.nowTriggers = nowTriggers
    }

    /// At the start of a write transaction: the `now()` triggers, once per connection, unless the store keeps its
    /// derived values with Core Data's triggers.
    func begin(_ db: Database) throws {
        guard !nowTriggers.isEmpty, try Int.fetchOne(db, sql: Self.coreDataTriggers) == nil,
              try Int.fetchOne(db, sql: "SELECT 1 FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE ? LIMIT 1",
                               arguments: [Self.nowTriggerPrefix + "%"]) == nil else { return }
        db.add(function: DatabaseFunction(Self.nowFunction, argumentCount: 0, pure: false) { _ in
            Date().timeIntervalSinceReferenceDate
        })
        for trigger in nowTriggers { try db.execute(sql: trigger) }
    }

    /// At the end of a write transaction: the other derived values, unless the store keeps them with Core Data's
    /// triggers.
    func refresh(_ db: Database) throws {
        guard !statements.isEmpty, try Int.fetchOne(db, sql: Self.coreDataTriggers) == nil else { return }
        for statement in statements { try db.execute(sql: statement) }
    }

    /// A query that returns a row when the store has Core Data's derived-attribute triggers.
    package static let coreDataTriggers = "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\' LIMIT 1"

    /// The SQL value of `expression` for the row `t` of `owner`, or nil for a form cdstore does not compute.
    static func sql(_ expression: ExpressionNode, entity: Entity, owner: EntityLayout, model: ManagedObjectModel,
                    layout: StoreLayout) -> String? {
        switch expression {
        case .function(let name, let arguments) where arguments.count == 1:
            switch name {
            case "lowercase:", "uppercase:", "canonical:":
                guard let text = value(of: arguments[0], entity: entity, owner: owner, model: model, layout: layout) else { return nil }
                switch name {
                case "lowercase:": return "\(SQLFunctions.lowercase)(\(text))"
                case "uppercase:": return "\(SQLFunctions.uppercase)(\(text))"
                default: return "\(SQLFunctions.fold)(\(text), \(ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).rawValue))"
                }
            case "count:":
                guard case .keyPath(let path) = arguments[0], path.components.count == 1, case .key(let name) = path.components[0]
                else { return nil }
                return aggregate(.count, over: name, of: nil, entity: entity, owner: owner, model: model, layout: layout)
            default: return nil
            }
        case .keyPath(let path):
            let parts = path.components
            if parts.count >= 2, case .key(let name) = parts[0], case .collectionOperator(let op) = parts[1] {
                switch (op, parts.count) {
                case (.count, 2): return aggregate(.count, over: name, of: nil, entity: entity, owner: owner, model: model, layout: layout)
                case (.sum, 3):
                    guard case .key(let attribute) = parts[2] else { return nil }
                    return aggregate(.sum, over: name, of: attribute, entity: entity, owner: owner, model: model, layout: layout)
                default: return nil
                }
            }
            guard parts.count == 2 else { return nil }
            return value(of: expression, entity: entity, owner: owner, model: model, layout: layout)
        default:
            return nil
        }
    }

    /// `t`'s attribute (`name`), or its to-one's attribute (`department.name`).
    static func value(of expression: ExpressionNode, entity: Entity, owner: EntityLayout, model: ManagedObjectModel,
                      layout: StoreLayout) -> String? {
        guard case .keyPath(let path) = expression else { return nil }
        let keys = path.components.compactMap { component -> String? in
            if case .key(let key) = component { return key } else { return nil }
        }
        guard keys.count == path.components.count else { return nil }
        switch keys.count {
        case 1:
            return owner.attributeColumns[keys[0]].map { "t.\($0)" }
        case 2:
            guard let toOne = owner.toOnes[keys[0]], let destination = layout.entity(named: toOne.destination),
                  let column = destination.attributeColumns[keys[1]] else { return nil }
            return "(SELECT d.\(column) FROM \(destination.table) d WHERE d.Z_PK = t.\(toOne.foreignKey))"
        default:
            return nil
        }
    }

    /// `@count` of the to-many `relationship`, or `@sum` of its destinations' `attribute`; 0 when it is empty.
    static func aggregate(_ op: CollectionOperator, over relationship: String, of attribute: String?, entity: Entity,
                          owner: EntityLayout, model: ManagedObjectModel, layout: StoreLayout) -> String? {
        guard let toMany = owner.toManys[relationship],
              let destinationName = model.relationships(of: entity).first(where: { $0.name == relationship })?.destination,
              let destination = layout.entity(named: destinationName) else { return nil }
        var summed = "*"
        if let attribute {
            guard let column = destination.attributeColumns[attribute] else { return nil }
            summed = "d.\(column)"
        }
        let function = op == .count ? "COUNT(\(summed))" : "IFNULL(SUM(\(summed)), 0)"
        let range = "d.Z_ENT BETWEEN \(destination.number) AND \(destination.subtreeMax)"
        switch toMany {
        case .foreignKey(let table, let foreignKey, _, _):
            return "(SELECT \(function) FROM \(table) d WHERE d.\(foreignKey) = t.Z_PK AND \(range))"
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            return "(SELECT \(function) FROM \(table) j JOIN \(destination.table) d ON d.Z_PK = j.\(destinationColumn) "
                + "WHERE j.\(sourceColumn) = t.Z_PK AND \(range))"
        }
    }
}
