import CDStoreJSON
internal import GRDB

/// The persistent-history tables of one store, as found in the file: Core Data has changed their columns
/// across OS releases and the tombstone columns depend on the model, so nothing is assumed beyond the few
/// columns every version has.
///
/// Seen in the corpus SwiftData store (framework 1523) and in third-party dumps of Photos, Notes and Contacts
/// stores:
///
/// ```sql
/// CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
///   ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB [, ZTOMBSTONE0 …] )
/// CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
///   ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
///   ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )
/// CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )
/// ```
///
/// `Z_PRIMARYKEY` numbers them 16001 CHANGE, 16002 TRANSACTION, 16003 TRANSACTIONSTRING, each with its own
/// `Z_MAX`; their rows' `Z_ENT` is that number and `Z_OPT` is NULL. The four strings of a transaction are
/// interned: the `…TS` columns hold an `ATRANSACTIONSTRING.Z_PK` and the `VARCHAR` twins stay NULL (every store
/// seen); older layouts may have only the twins, so both are read, the interned one first. `ZTIMESTAMP` is
/// seconds since 2001-01-01 (791478105.83 = 2026-01-30 in the corpus store).
struct HistoryTables {
    static let change = "ACHANGE"
    static let transaction = "ATRANSACTION"
    static let strings = "ATRANSACTIONSTRING"
    static let changeEntity = 16001
    static let transactionEntity = 16002
    static let stringEntity = 16003

    /// One of the four strings of a transaction: its interned column and its text twin, when the table has them.
    struct StringField {
        var interned: String?
        var text: String?
    }

    let transactionColumns: Set<String>
    let changeColumns: Set<String>
    /// Whether `ATRANSACTIONSTRING` exists (with `ZNAME`).
    let hasStrings: Bool
    /// `ZTOMBSTONE0`, `ZTOMBSTONE1`, … as far as they go without a gap.
    let tombstoneColumns: [String]
    let author: StringField
    let bundleID: StringField
    let contextName: StringField
    let processID: StringField

    /// The history tables of the database, or nil when it keeps no history (no `ATRANSACTION` or `ACHANGE`, or
    /// one without the columns every version has).
    static func find(_ db: Database) throws -> HistoryTables? {
        // One plain query, the same every time: this runs before every write of every store.
        let found = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
                                     arguments: [transaction, change]) ?? 0
        guard found == 2 else { return nil }
        let transactionColumns = Set(try db.columns(in: transaction).map { $0.name.uppercased() })
        let changeColumns = Set(try db.columns(in: change).map { $0.name.uppercased() })
        guard transactionColumns.contains("Z_PK"),
              ["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"].allSatisfy(changeColumns.contains)
        else { return nil }
        let hasStrings = try db.hasTable(strings) && (try db.columns(in: strings).contains { $0.name.uppercased() == "ZNAME" })
        return HistoryTables(transactionColumns: transactionColumns, changeColumns: changeColumns, hasStrings: hasStrings)
    }

    private init(transactionColumns: Set<String>, changeColumns: Set<String>, hasStrings: Bool) {
        self.transactionColumns = transactionColumns
        self.changeColumns = changeColumns
        self.hasStrings = hasStrings
        var tombstones: [String] = []
        while changeColumns.contains("ZTOMBSTONE\(tombstones.count)") { tombstones.append("ZTOMBSTONE\(tombstones.count)") }
        tombstoneColumns = tombstones
        func field(_ name: String) -> StringField {
            StringField(interned: hasStrings && transactionColumns.contains(name + "TS") ? name + "TS" : nil,
                        text: transactionColumns.contains(name) ? name : nil)
        }
        author = field("ZAUTHOR")
        bundleID = field("ZBUNDLEID")
        contextName = field("ZCONTEXTNAME")
        processID = field("ZPROCESSID")
    }

    var hasTimestamp: Bool { transactionColumns.contains("ZTIMESTAMP") }
    var hasColumnsBitmap: Bool { changeColumns.contains("ZCOLUMNS") }

    /// The four string fields in the order ``HistoryTransaction`` lists them, with the alias of their join.
    var stringFields: [(field: StringField, alias: String)] {
        [(author, "sa"), (bundleID, "sb"), (processID, "sp"), (contextName, "sc")]
    }

    /// SQL reading one string field of the transaction aliased `t`: the interned string, else the text twin.
    func expression(_ field: StringField, alias: String) -> String {
        switch (field.interned, field.text) {
        case (.some, .some(let text)): "COALESCE(\(alias).ZNAME, t.\(text))"
        case (.some, nil): "\(alias).ZNAME"
        case (nil, .some(let text)): "t.\(text)"
        case (nil, nil): "NULL"
        }
    }

    /// The `LEFT JOIN`s that resolve interned strings for ``expression(_:alias:)``.
    var stringJoins: String {
        stringFields.compactMap { field, alias in
            field.interned.map { " LEFT JOIN \(Self.strings) \(alias) ON \(alias).Z_PK = t.\($0)" }
        }.joined()
    }
}
