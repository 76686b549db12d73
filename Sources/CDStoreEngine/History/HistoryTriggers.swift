import CDStoreJSON
import CDStoreModel

/// The SQL of the temporary triggers that note every object a write changes, for ``HistoryRecorder``.
///
/// Core Data keeps history the same way — triggers on the entity tables, so batch updates and deletes are
/// recorded too — but its triggers are TEMP ones on its own connections, which is why no store shows them in
/// `sqlite_master`. These are TEMP too: they exist on cdstore's connection only, never in the file.
///
/// Each trigger folds its row into `cdstore_history_events`, one row per object (`UNIQUE (tbl, pk)`), so that
/// an object inserted and then given a foreign key stays one insert, two updates of one object are one update
/// with both properties, and an object inserted and deleted by the same command leaves no trace (type -1):
/// one change per object per transaction, as Core Data records a save. Relationships stored elsewhere (to-many
/// ones: the inverse's foreign key in another table, or a join table) mark the object that owns them as updated
/// with that relationship's bit, as Core Data lists a to-many among an object's updated properties when
/// members come or go.
struct HistoryTriggers {
    static let events = "cdstore_history_events"
    static let state = "cdstore_history_state"
    static let triggerPrefix = "cdstore_history_"
    /// `cdstore_history_bits(entity, table, flags…)`: the bitmap of the table's tracked columns whose flag is 1.
    static let bitsFunction = "cdstore_history_bits"
    /// `cdstore_history_bit(entity, property)`: the bitmap with one property's bit.
    static let bitFunction = "cdstore_history_bit"
    /// `cdstore_history_or(a, b)`: the union of two bitmaps.
    static let orFunction = "cdstore_history_or"

    /// Flags per `cdstore_history_bits` argument: keeps each `||` chain far below SQLite's expression depth limit.
    static let flagsPerArgument = 100

    /// The property each tracked column of each entity table stands for, in flag order.
    private(set) var trackedProperties: [String: [String]] = [:]
    /// `CREATE TEMP TRIGGER` statements.
    private(set) var statements: [String] = []

    /// The triggers for `layout`, writing `tombstones` tombstone columns.
    init(model: ManagedObjectModel, layout: StoreLayout, tombstones: Int) {
        var inserts: [String: [String]] = [:]
        var updates: [String: [String]] = [:]
        var deletes: [String: [String]] = [:]
        var order: [String] = []
        func note(_ table: String) { if !order.contains(table) { order.append(table) } }

        let entityTables = layout.entities.reduce(into: [String: [EntityLayout]]()) { $0[$1.table, default: []].append($1) }
        for table in layout.tables.map(\.name) where entityTables[table] != nil {
            let members = entityTables[table]!
            note(table)
            var tracked: [(name: String, changed: String)] = []
            var seen: Set<String> = []
            for entity in members {
                for (name, column) in entity.attributeColumns.sorted(by: { $0.key < $1.key }) where seen.insert(column).inserted {
                    tracked.append((name, "OLD.\(column) IS NOT NEW.\(column)"))
                }
                for (name, toOne) in entity.toOnes.sorted(by: { $0.key < $1.key }) where seen.insert(toOne.foreignKey).inserted {
                    let columns = [toOne.foreignKey] + (toOne.entityKey.map { [$0] } ?? [])
                    tracked.append((name, columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")))
                }
            }
            trackedProperties[table] = tracked.map(\.name)
            let chunks = stride(from: 0, to: tracked.count, by: Self.flagsPerArgument).map { start in
                tracked[start..<min(start + Self.flagsPerArgument, tracked.count)].map { "(\($0.changed))" }.joined(separator: " || ")
            }
            let bits = "\(Self.bitsFunction)(NEW.Z_ENT, '\(table)'\(chunks.map { ", " + $0 }.joined()))"
            inserts[table, default: []].append(Self.upsert(table: table, pk: "NEW.Z_PK", entity: "NEW.Z_ENT", type: 0, bits: "NULL",
                                                           onConflict: "ent = excluded.ent, type = CASE WHEN type = 2 THEN 1 ELSE 0 END, bits = NULL"))
            updates[table, default: []].append(Self.upsert(table: table, pk: "NEW.Z_PK", entity: "NEW.Z_ENT", type: 1, bits: bits,
                                                           onConflict: Self.mergeBits))
            let stones = (0..<tombstones).map { Self.tombstone($0, members: members, model: model) }
            deletes[table, default: []].append(Self.upsert(
                table: table, pk: "OLD.Z_PK", entity: "OLD.Z_ENT", type: 2, bits: "NULL", tombstones: stones,
                onConflict: (["type = CASE WHEN type = 0 THEN -1 ELSE 2 END", "bits = NULL"]
                             + (0..<tombstones).map { "t\($0) = excluded.t\($0)" }).joined(separator: ", ")))
        }

        // Relationships whose membership is stored in another table's rows.
        var marked: Set<String> = []
        for entity in layout.entities {
            for (name, storage) in entity.toManys.sorted(by: { $0.key < $1.key }) {
                guard marked.insert("\(entity.table).\(name).\(storage)").inserted else { continue }
                switch storage {
                case .foreignKey(let table, let foreignKey, _, let orderKey):
                    note(table)
                    inserts[table, default: []].append(Self.mark(entity.table, "NEW.\(foreignKey)", name))
                    deletes[table, default: []].append(Self.mark(entity.table, "OLD.\(foreignKey)", name))
                    let moved = ([foreignKey] + (orderKey.map { [$0] } ?? [])).map { "OLD.\($0) IS NOT NEW.\($0)" }
                        .joined(separator: " OR ")
                    for side in ["OLD", "NEW"] {
                        updates[table, default: []].append(Self.mark(entity.table, "\(side).\(foreignKey)", name, when: moved))
                    }
                case .joinTable(let table, let source, let destination, let orderColumn):
                    note(table)
                    // A reflexive relationship is its own inverse: both columns hold owners of it.
                    let owners = destination == "REFLEXIVE" ? [source, destination] : [source]
                    for column in owners {
                        inserts[table, default: []].append(Self.mark(entity.table, "NEW.\(column)", name))
                        deletes[table, default: []].append(Self.mark(entity.table, "OLD.\(column)", name))
                        let moved = ([column] + (orderColumn.map { [$0] } ?? [])).map { "OLD.\($0) IS NOT NEW.\($0)" }
                            .joined(separator: " OR ")
                        for side in ["OLD", "NEW"] {
                            updates[table, default: []].append(Self.mark(entity.table, "\(side).\(column)", name, when: moved))
                        }
                    }
                }
            }
        }

        let guardClause = "WHEN EXISTS (SELECT 1 FROM \(Self.state))"
        for table in order {
            for (event, body) in [("INSERT", inserts[table]), ("UPDATE", updates[table]), ("DELETE", deletes[table])] {
                guard let body, !body.isEmpty else { continue }
                statements.append("CREATE TEMP TRIGGER \(Self.triggerPrefix)\(table)_\(event.lowercased()) AFTER \(event) ON main.\(table) "
                                  + "FOR EACH ROW \(guardClause) BEGIN \(body.map { $0 + ";" }.joined(separator: " ")) END")
            }
        }
    }

    /// `CREATE TEMP TABLE` statements for the recorder's state.
    static func tables(tombstones: Int) -> [String] {
        ["CREATE TEMP TABLE IF NOT EXISTS \(state) (active INTEGER)",
         "CREATE TEMP TABLE IF NOT EXISTS \(events) (tbl TEXT NOT NULL, pk INTEGER NOT NULL, ent INTEGER, type INTEGER, "
            + "bits BLOB\((0..<tombstones).map { ", t\($0)" }.joined()), UNIQUE (tbl, pk))"]
    }

    /// On conflict: an update adds its bits to an update; an insert or delete stays what it is.
    private static let mergeBits = "bits = CASE WHEN type = 1 THEN \(orFunction)(bits, excluded.bits) ELSE bits END"

    private static func upsert(table: String, pk: String, entity: String, type: Int, bits: String, tombstones: [String] = [],
                               onConflict: String) -> String {
        let stoneColumns = tombstones.indices.map { ", t\($0)" }.joined()
        return "INSERT INTO \(events) (tbl, pk, ent, type, bits\(stoneColumns)) VALUES ('\(table)', \(pk), \(entity), \(type), "
            + "\(bits)\(tombstones.map { ", " + $0 }.joined())) ON CONFLICT (tbl, pk) DO UPDATE SET \(onConflict)"
    }

    /// Marks the object of `table` whose `Z_PK` is `pk` (if there is one) as updated in `relationship`.
    private static func mark(_ table: String, _ pk: String, _ relationship: String, when condition: String? = nil) -> String {
        "INSERT INTO \(events) (tbl, pk, ent, type, bits) SELECT '\(table)', o.Z_PK, o.Z_ENT, 1, "
            + "\(bitFunction)(o.Z_ENT, '\(relationship)') FROM \(table) o WHERE o.Z_PK = \(pk)"
            + (condition.map { " AND (\($0))" } ?? "") + " ON CONFLICT (tbl, pk) DO UPDATE SET \(mergeBits)"
    }

    /// The value of tombstone column `index` for a deleted row of the table of `members`: per entity, its
    /// `index`-th preserved attribute (``HistoryPropertyOrder``). Binary attributes kept outside the store are not
    /// preserved (Core Data does not tombstone them).
    private static func tombstone(_ index: Int, members: [EntityLayout], model: ManagedObjectModel) -> String {
        var cases: [String] = []
        for member in members {
            guard let entity = model.entity(named: member.name) else { continue }
            let order = HistoryPropertyOrder(entity: entity, model: model)
            guard index < order.tombstones.count, let attribute = model.attribute(order.tombstones[index], of: entity),
                  !attribute.allowsExternalBinaryDataStorage, let column = member.attributeColumns[attribute.name] else { continue }
            cases.append("WHEN \(member.number) THEN OLD.\(column)")
        }
        return cases.isEmpty ? "NULL" : "CASE OLD.Z_ENT \(cases.joined(separator: " ")) END"
    }
}
