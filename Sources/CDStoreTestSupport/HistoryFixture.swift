import Foundation

/// A store with Core Data's persistent history, for the history tests of the library and of the CLI: a small
/// model, the history tables laid out exactly as in the corpus SwiftData store (same DDL and indexes, entities
/// 16001–16003 in `Z_PRIMARYKEY`, `Z_OPT` NULL), four tombstone columns, and rows for three transactions.
///
/// Entity numbers of the model: 1 Item, 2 Book (sub-entity of Item), 3 Shelf, 4 Tag. Bit order (sorted names):
/// Item `added code title`; Book `added code isbn pages shelf tags title`; Shelf `books label name`; Tag
/// `books name`. Preserved after deletion: Item/Book `added code title` (+ Book `isbn`), Shelf `name`.
///
/// The rows: transaction 1 (interned strings: author `NSCloudKitMirroringDelegate.import`, bundle
/// `com.example.shelves`, process `Shelves`, context `viewContext`) inserts Shelf p1, Book p1, Tag p1;
/// transaction 2 (author `widget`, process `ShelvesWidget`, no context) updates Book p1 (`pages`, `shelf`:
/// `X'18'`), Shelf p1 (`books`: `X'80'`) and Tag p1 (`books` and a bit past its properties: `X'81'`);
/// transactions 3 and 4 were pruned; transaction 5 (only the text twins: author `legacy`) updates an object of
/// an entity numbered 99 that no table knows, and deletes Book p1 (tombstones added, code, title; isbn NULL)
/// and Item p2 (added, code, title). `Z_MAX` is 9 for changes, 5 for transactions, 6 for strings.
public enum HistoryFixture {
    /// The model, in cdstore's JSON model format.
    public static let model = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [
          {"name": "Item", "attributes": [
            {"name": "title", "type": "String", "optional": true, "preservesValueInHistoryOnDeletion": true},
            {"name": "code", "type": "String", "optional": true, "preservesValueInHistoryOnDeletion": true},
            {"name": "added", "type": "Date", "optional": true, "preservesValueInHistoryOnDeletion": true}]},
          {"name": "Book", "parent": "Item", "attributes": [
            {"name": "isbn", "type": "String", "optional": true, "preservesValueInHistoryOnDeletion": true},
            {"name": "pages", "type": "Integer 32", "optional": true}],
           "relationships": [
            {"name": "shelf", "destination": "Shelf", "inverse": "books", "optional": true},
            {"name": "tags", "destination": "Tag", "inverse": "books", "toMany": true, "optional": true}]},
          {"name": "Shelf", "attributes": [
            {"name": "name", "type": "String", "optional": true, "preservesValueInHistoryOnDeletion": true},
            {"name": "label", "type": "String", "optional": true}],
           "relationships": [
            {"name": "books", "destination": "Book", "inverse": "shelf", "toMany": true, "optional": true,
             "deleteRule": "Nullify"}]},
          {"name": "Tag", "attributes": [{"name": "name", "type": "String", "optional": true}],
           "relationships": [
            {"name": "books", "destination": "Book", "inverse": "tags", "toMany": true, "optional": true}]}
        ]}
        """

    /// The history tables, their indexes and their `Z_PRIMARYKEY` rows, as Core Data creates them.
    public static let tables = [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, "
            + "ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB, ZTOMBSTONE2 BLOB, "
            + "ZTOMBSTONE3 BLOB )",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, "
            + "ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, "
            + "ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 0), (16002, 'TRANSACTION', 0, 0), "
            + "(16003, 'TRANSACTIONSTRING', 0, 0)",
    ]

    /// The rows of the three transactions.
    public static let rows = [
        "INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, NULL, 'NSCloudKitMirroringDelegate.import'), "
            + "(2, 16003, NULL, 'com.example.shelves'), (3, 16003, NULL, 'Shelves'), (4, 16003, NULL, 'viewContext'), "
            + "(5, 16003, NULL, 'widget'), (6, 16003, NULL, 'ShelvesWidget')",
        "INSERT INTO ATRANSACTION VALUES (1, 16002, NULL, 1, 2, 4, 3, 700000000.5, NULL, NULL, NULL, NULL, NULL), "
            + "(2, 16002, NULL, 5, 2, NULL, 6, 700003600.25, NULL, NULL, NULL, NULL, NULL), "
            + "(5, 16002, NULL, NULL, NULL, NULL, NULL, 700007200, 'legacy', 'com.example.old', NULL, 'OldApp', NULL)",
        "INSERT INTO ACHANGE VALUES "
            + "(1, 16001, NULL, 0, 3, 1, 1, NULL, NULL, NULL, NULL, NULL), "
            + "(2, 16001, NULL, 0, 2, 1, 1, NULL, NULL, NULL, NULL, NULL), "
            + "(3, 16001, NULL, 0, 4, 1, 1, NULL, NULL, NULL, NULL, NULL), "
            + "(4, 16001, NULL, 1, 2, 1, 2, X'18', NULL, NULL, NULL, NULL), "
            + "(5, 16001, NULL, 1, 3, 1, 2, X'80', NULL, NULL, NULL, NULL), "
            + "(6, 16001, NULL, 1, 4, 1, 2, X'81', NULL, NULL, NULL, NULL), "
            + "(7, 16001, NULL, 1, 99, 3, 5, X'40', NULL, NULL, NULL, NULL), "
            + "(8, 16001, NULL, 2, 2, 1, 5, NULL, 699999999.25, 'B-1', NULL, 'Dune'), "
            + "(9, 16001, NULL, 2, 1, 2, 5, NULL, 700000000, 'I-2', 'Lamp', NULL)",
        "UPDATE Z_PRIMARYKEY SET Z_MAX = 9 WHERE Z_ENT = 16001",
        "UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_ENT = 16002",
        "UPDATE Z_PRIMARYKEY SET Z_MAX = 6 WHERE Z_ENT = 16003",
    ]

    /// Writes the model to `folder/History.json` and returns its path.
    public static func writeModel(in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("History.json")
        try Data(model.utf8).write(to: url)
        return url.path
    }

    /// Runs `statements` on the SQLite file at `path` with Python's `sqlite3` module (for tests that have no
    /// SQLite library of their own).
    public static func execute(_ statements: [String], on path: String) throws {
        let script = statements.map { $0 + ";" }.joined(separator: "\n")
        let result = try ProcessRunner.python(
            "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()\nc.close()",
            [path, script])
        guard result.status == 0 else {
            throw NSError(domain: "HistoryFixture", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
    }
}
