import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB
internal import GRDBSQLite

/// Encodes rows of one entity, read straight from a SQLite statement, as JSON objects or CSV lines.
///
/// Everything that is the same for every row is prepared once: JSON keys (`,"name":`), the object-ID prefix
/// (`x-coredata://UUID/Entity/p`), how each column's storage class maps to the attribute's printed form. A
/// row then costs a few byte copies per value; only values whose form needs more than the column (external
/// binary files, keyed archives) go through ``AttributeCoding`` and ``ObjectValue``, which keeps them exact.
struct RecordEncoder {
    /// How one attribute prints, decided by its type; the column's storage class refines it per row.
    enum Kind {
        case integer, boolean, double, float, decimal, date, uuid, plain
        /// Needs ``AttributeCoding/objectValue(_:for:externalData:)`` for BLOBs (external data, keyed archives,
        /// SwiftData's JSON elements).
        case decoded
    }

    /// Kept small and free of references: it is read for every value of every row.
    struct Field {
        /// Index in ``attributes``.
        let attribute: Int
        let kind: Kind
        /// Result column of the value (0 is `Z_PK`, 1 is `Z_ENT`).
        let column: Int32
        /// Where `,"name":` (JSON) is in ``keys``; for the first element of a composite attribute it also opens
        /// the composite's object (`,"home":{"street":`).
        let key: Range<Int>
        /// How many composite objects close after this value (JSON).
        var closers = 0
        /// The composites whose first element this is, outermost first, in ``nilComposites`` (JSON).
        var nilForms: Range<Int> = 0..<0
    }

    /// A composite written as `null` when every element column is NULL: Core Data keeps no flag for a nil
    /// composite, only its element columns NULL (see ``CompositeValues``).
    struct NilComposite {
        /// Index in ``fields`` of the composite's last element: the next field written is the one after.
        let last: Int
        /// `,"home":null` (with the objects of enclosing composites opened here, when this one starts them).
        let key: Range<Int>
        /// How many enclosing composite objects close after it.
        let closers: Int
    }

    /// One cell of a CSV line, or (JSON) nothing: JSON writes fields then relationships in order.
    enum Cell {
        case id, entity, empty
        case field(Int)
        case relationship(Int)
    }

    let entityName: String
    let fields: [Field]
    let nilComposites: [NilComposite]
    let attributes: [Attribute]
    /// Every field's `,"name":`, back to back.
    let keys: [UInt8]
    let cells: [Cell]
    let isCSV: Bool
    let nameEntity: Bool
    /// `{"_id":"x-coredata://UUID/Entity/p` (JSON) or `x-coredata://UUID/Entity/p` (CSV).
    let idOpen: [UInt8]
    /// `","_entity":"Name"` or `"`: what follows the primary key's digits (JSON).
    let idClose: [UInt8]
    /// The entity name as a CSV field.
    let entityCell: [UInt8]
    /// Whether ``idOpen`` can be written without CSV quoting.
    let idIsPlain: Bool
    let externalData: ExternalDataLocation?
    let store: Store

    init(query: QueryBuilder, entityNumber: Int, style: RecordStyle, relationships: [String], store: Store) throws {
        let name = query.attributesByEntity[entityNumber]?.name ?? query.entity.name
        entityName = name
        self.store = store
        externalData = query.externalData
        let columns = query.valueColumns[entityNumber] ?? []
        attributes = columns.map(\.attribute)
        var keys: [UInt8] = []
        // A composite's elements come together, named by path (`home.city`): JSON nests them in an object.
        let groups = columns.map { $0.attribute.name.split(separator: ".").dropLast().map(String.init) }
        func shared(_ a: [String], _ b: [String]) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        var built: [Field] = []
        for (index, column) in columns.enumerated() {
            let start = keys.count
            let group = groups[index]
            let open = shared(index > 0 ? groups[index - 1] : [], group)
            let leaf = column.attribute.name.split(separator: ".").last.map(String.init) ?? column.attribute.name
            keys += Array(",".utf8)
            for name in group[open...] { keys += Array((JSONText.quoted(name) + ":{").utf8) }
            keys += Array((JSONText.quoted(leaf) + ":").utf8)
            var field = Field(attribute: index, kind: Self.kind(of: column.attribute), column: Int32(column.position),
                              key: start..<keys.count)
            field.closers = group.count - shared(group, index + 1 < groups.count ? groups[index + 1] : [])
            built.append(field)
        }
        // Each composite starting at a field may be nil in a row: its `null` form, with where it ends.
        var nils: [NilComposite] = []
        for index in built.indices {
            let group = groups[index]
            let open = shared(index > 0 ? groups[index - 1] : [], group)
            let start = nils.count
            for depth in open..<group.count {
                let path = Array(group[...depth])
                var last = index
                while last + 1 < groups.count, groups[last + 1].starts(with: path) { last += 1 }
                let keyStart = keys.count
                keys += Array(",".utf8)
                for name in group[open..<depth] { keys += Array((JSONText.quoted(name) + ":{").utf8) }
                keys += Array((JSONText.quoted(group[depth]) + ":null").utf8)
                let unopened = groups[last].count - depth
                nils.append(NilComposite(last: last, key: keyStart..<keys.count, closers: built[last].closers - unopened))
            }
            built[index].nilForms = start..<nils.count
        }
        fields = built
        nilComposites = nils
        self.keys = keys
        nameEntity = style.nameEntity
        let prefix = "x-coredata://\(store.metadata.uuid)/\(name)/p"
        idIsPlain = CSVText.field(prefix + "1") == prefix + "1"
        entityCell = Array(CSVText.field(name).utf8)
        switch style.syntax {
        case .json:
            isCSV = false
            cells = []
            idOpen = Array(("{\"_id\":" + JSONText.quoted(prefix).dropLast()).utf8)
            idClose = Array(("\"" + (nameEntity ? ",\"_entity\":" + JSONText.quoted(name) : "")).utf8)
        case .csv(let columns):
            isCSV = true
            idOpen = Array(prefix.utf8)
            idClose = []
            let fieldIndex = Dictionary(attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
            let relationshipIndex = Dictionary(relationships.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            cells = columns.map { column in
                if column == "_id" { return .id }
                if column == "_entity" { return .entity }
                if let i = fieldIndex[column] { return .field(i) }
                if let i = relationshipIndex[column] { return .relationship(i) }
                return .empty
            }
        }
    }

    static func kind(of attribute: Attribute) -> Kind {
        switch attribute.type {
        case .boolean: .boolean
        case .double: .double
        case .float: .float
        case .decimal: .decimal
        case .date: .date
        case .uuid: .uuid
        case .integer16, .integer32, .integer64: .integer
        case .binary where attribute.allowsExternalBinaryDataStorage: .decoded
        case .transformable where TransformableCoding.usesKeyedArchive(attribute): .decoded
        case .binary where attribute.swiftDataValue == .json: .decoded
        default: .plain
        }
    }

    /// Where the relationship values of a CSV line start: every cell before is written with the row.
    var csvHeadCount: Int {
        cells.firstIndex { if case .relationship = $0 { true } else { false } } ?? cells.count
    }

    /// Whether the CSV columns keep relationships after everything else (so a row's head can be written before
    /// its batch's relationships are read).
    var relationshipsTrail: Bool {
        cells[csvHeadCount...].allSatisfy { if case .relationship = $0 { true } else { false } }
    }

    /// Writes a row's ID, entity and attribute values (JSON: without the closing brace).
    func writeHead(_ statement: OpaquePointer, pk: Int64, to out: ByteBuffer) throws {
        if !isCSV {
            out.append(idOpen)
            out.appendInteger(pk)
            out.append(idClose)
            try keys.withUnsafeBufferPointer { keys in
                try fields.withUnsafeBufferPointer { fields in
                    var index = 0
                    while index < fields.count {
                        let field = fields[index]
                        if !field.nilForms.isEmpty, let none = nilComposite(at: index, statement) {
                            out.append(UnsafeBufferPointer(rebasing: keys[none.key]))
                            for _ in 0..<none.closers { out.append(UInt8(ascii: "}")) }
                            index = none.last + 1
                            continue
                        }
                        out.append(UnsafeBufferPointer(rebasing: keys[field.key]))
                        try writeValue(field, statement, json: true, to: out)
                        for _ in 0..<field.closers { out.append(UInt8(ascii: "}")) }
                        index += 1
                    }
                }
            }
            return
        }
        for (i, cell) in cells[..<csvHeadCount].enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            switch cell {
            case .id:
                if idIsPlain {
                    out.append(idOpen)
                    out.appendInteger(pk)
                } else {
                    out.append(CSVText.field(String(decoding: idOpen, as: UTF8.self) + String(pk)))
                }
            case .entity: out.append(entityCell)
            case .empty, .relationship: break
            case .field(let index): try writeValue(fields[index], statement, json: false, to: out)
            }
        }
    }

    /// The outermost composite starting at field `index` whose element columns are all NULL in this row.
    private func nilComposite(at index: Int, _ statement: OpaquePointer) -> NilComposite? {
        for form in nilComposites[fields[index].nilForms] where (index...form.last).allSatisfy({
            sqlite3_column_type(statement, fields[$0].column) == SQLITE_NULL
        }) {
            return form
        }
        return nil
    }

    /// One attribute value, as ``AttributeCoding/objectValue(_:for:externalData:)`` and then ``JSONText`` or
    /// ``ValueText/plain(_:)`` would print it.
    private func writeValue(_ field: Field, _ statement: OpaquePointer, json: Bool, to out: ByteBuffer) throws {
        let column = field.column
        switch sqlite3_column_type(statement, column) {
        case SQLITE_NULL:
            if json { out.append(Self.null) }
        case SQLITE_INTEGER:
            let i = sqlite3_column_int64(statement, column)
            switch field.kind {
            case .boolean: out.append(i != 0 ? Self.true : Self.false)
            case .double, .decimal: out.appendNumber(Double(i))
            case .float: out.append(ValueText.number(Float(i)))
            case .date: writeDate(Double(i), json: json, to: out)
            default: out.appendInteger(i)
            }
        case SQLITE_FLOAT:
            let d = sqlite3_column_double(statement, column)
            switch field.kind {
            case .float: writeFloat(Float(d), json: json, to: out)
            case .date: writeDate(d, json: json, to: out)
            case .integer where d == d.rounded() && abs(d) < 9.2e18: out.appendInteger(Int64(d))
            case .boolean: out.append(d != 0 ? Self.true : Self.false)
            default: writeDouble(d, json: json, to: out)
            }
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, column) else { return }
            let count = Int(sqlite3_column_bytes(statement, column))
            try writeText(UnsafeBufferPointer(start: text, count: count), json: json, to: out)
        default:
            let count = Int(sqlite3_column_bytes(statement, column))
            let blob = UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, column), count: count)
            switch field.kind {
            case .decoded:
                let value = try AttributeCoding.objectValue(Data(blob).databaseValue, for: attributes[field.attribute],
                                                           externalData: externalData, entity: entityName)
                Self.writeObjectValue(value, json: json, to: out)
            case .uuid where count == 16:
                if json { out.append(UInt8(ascii: "\"")) }
                out.appendUUID(blob)
                if json { out.append(UInt8(ascii: "\"")) }
            default:
                // Base64 never needs JSON escapes or CSV quotes, but empty data is the empty string: `""` in both.
                if json || count == 0 { out.append(UInt8(ascii: "\"")) }
                out.appendBase64(blob)
                if json || count == 0 { out.append(UInt8(ascii: "\"")) }
            }
        }
    }

    private func writeDate(_ seconds: Double, json: Bool, to out: ByteBuffer) {
        if json { out.append(UInt8(ascii: "\"")) }
        out.appendISO8601(seconds)
        if json { out.append(UInt8(ascii: "\"")) }
    }

    private func writeDouble(_ d: Double, json: Bool, to out: ByteBuffer) {
        let quoted = json && !d.isFinite
        if quoted { out.append(UInt8(ascii: "\"")) }
        out.appendNumber(d)
        if quoted { out.append(UInt8(ascii: "\"")) }
    }

    private func writeFloat(_ f: Float, json: Bool, to out: ByteBuffer) {
        let quoted = json && !f.isFinite
        if quoted { out.append(UInt8(ascii: "\"")) }
        out.append(ValueText.number(f))
        if quoted { out.append(UInt8(ascii: "\"")) }
    }

    /// Every byte of the text, NUL included, as ``ExactText`` reads it for the general path. ASCII text is copied
    /// as it is; other text goes through `String` so that repairs of invalid UTF-8 (U+FFFD) match.
    private func writeText(_ raw: UnsafeBufferPointer<UInt8>, json: Bool, to out: ByteBuffer) throws {
        var union: UInt8 = 0
        for byte in raw { union |= byte }
        if union < 0x80 {
            if json { out.appendJSONString(raw) } else { out.appendCSVField(raw) }
            return
        }
        var string = String(decoding: raw, as: UTF8.self)
        string.withUTF8 { if json { out.appendJSONString($0) } else { out.appendCSVField($0) } }
    }

    /// The general path's printing of one value: JSON text, or a CSV field (NULL: an empty one).
    static func writeObjectValue(_ value: ObjectValue, json: Bool, to out: ByteBuffer) {
        if json {
            out.append(JSONText.encode(value))
        } else if value != .null {
            out.append(CSVText.field(ValueText.plain(value)))
        }
    }

    static let null: [UInt8] = Array("null".utf8)
    static let `true`: [UInt8] = Array("true".utf8)
    static let `false`: [UInt8] = Array("false".utf8)
}
