import CDStoreModel
import CDStorePredicate
import CDStoreEngine
import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// `BEGINSWITH`, `ENDSWITH` and `CONTAINS` without options run as SQLite `GLOB` when the needle is ASCII: they
/// must select what Foundation's semantics (``PredicateStringMatching`` on the text as it is read back) select,
/// including for needles holding GLOB's own wildcards and for stored text that is not valid UTF-8.
@Suite struct StringGlobTests {
    @Test func globAgreesWithTheStringFunction() throws {
        let model = try ModelLoader.load(Corpus.schemas.appendingPathComponent("People.json").path).model
        let path = try temporaryDirectory().appendingPathComponent("G.sqlite").path
        let store = try Store.open(at: path, model: model)
        let names = ["Ann", "A*b", "A?c", "[A]", "a]b", "Ann*", "*", "?", "", "Ça", "xA", "AAA", "A\\B", "ends*"]
        try DatabaseQueue(path: path).write { db in
            var pk = 1
            for name in names {
                try db.execute(sql: "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, ?)", arguments: [pk, name])
                pk += 1
            }
            // Invalid UTF-8 around ASCII, NUL inside text, a BLOB that is valid UTF-8 and one that is not, NULL.
            for hex in ["41ff42", "ff41", "4100ff2a"] {
                try db.execute(sql: "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, CAST(x'\(hex)' AS TEXT))",
                               arguments: [pk])
                pk += 1
            }
            try db.execute(sql: "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, 1, x'416e6e'), (?, 1, 1, x'41ff'), (?, 1, 1, NULL)",
                           arguments: [pk, pk + 1, pk + 2])
        }
        let stored = try store.fetch(ObjectFetchRequest(entity: "Person")).map { object -> String? in
            if case .string(let s)? = object["name"] { return s }
            if case .data(let d)? = object["name"] { return String(data: d, encoding: .utf8) }
            return nil
        }
        for needle in ["A", "A*", "*", "?", "[", "]", "[A]", "A?c", "", "\\", "n", "B", "Ann", "xyz", "*b"] {
            for (op, test) in [("BEGINSWITH", PredicateStringMatching.beginsWith), ("ENDSWITH", PredicateStringMatching.endsWith),
                               ("CONTAINS", PredicateStringMatching.contains)] {
                let predicate = try PredicateParserShim.parse("name \(op) %@", [.string(needle)])
                let expected = stored.filter { $0.map { test($0, needle, []) } ?? false }.count
                #expect(try store.count(ObjectFetchRequest(entity: "Person", predicate: predicate)) == expected,
                        "name \(op) '\(needle)'")
            }
        }
    }
}
