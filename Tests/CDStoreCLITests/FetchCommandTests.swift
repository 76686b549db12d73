import CDStoreTestSupport
import Foundation
import Testing

/// `fetch`/`count`/`delete` with `--where`, `--sort`, `--limit`, `--offset`, and the global options.
@Suite("Fetch, count and delete")
struct FetchCommandTests {
    static let people = """
        {"str":"Café","i32":1,"flag":true,"dbl":1.5}
        {"str":"cafeteria","i32":2,"flag":false,"dbl":2.5}
        {"str":"Apple","i32":3,"flag":true}
        {"str":"banana","i32":4}
        {"i32":5}
        {"str":"O'Neil","i32":6}
        """

    static func seeded() throws -> Sandbox {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--nl"], stdin: people)
        return box
    }

    /// The `i32` values of the objects `fetch Item` prints with `options`, in output order.
    static func keys(_ box: Sandbox, _ options: [String]) throws -> [Int] {
        let result = try box.run(["fetch", "Item", "--format", "json"] + options)
        #expect(result.status == 0, "\(options): \(result.stderr)")
        return try Sandbox.objects(result.stdout).map { ($0["i32"] as? NSNumber)?.intValue ?? -1 }
    }

    @Test(arguments: [
        ("i32 = 2", [2]), ("i32 == 2", [2]), ("i32 != 2", [1, 3, 4, 5, 6]), ("i32 <> 2", [1, 3, 4, 5, 6]),
        ("i32 < 2", [1]), ("i32 <= 2", [1, 2]), ("i32 > 5", [6]), ("i32 >= 5", [5, 6]),
        ("i32 > 1 AND i32 < 4", [2, 3]), ("i32 == 1 OR i32 == 6", [1, 6]), ("NOT i32 > 1", [1]),
        ("i32 == 1 OR i32 == 2 AND flag == TRUE", [1]), ("(i32 == 1 OR i32 == 2) AND flag == FALSE", [2]),
        ("i32 < 3 && !(flag == FALSE) || i32 == 6", [1, 6]),
        ("flag == TRUE", [1, 3]), ("flag == FALSE", [2]), ("flag == YES", [1, 3]), ("dbl > 2", [2]), ("dbl == 1.5", [1]),
        ("str == 'Apple'", [3]), ("str == \"Apple\"", [3]), ("str == 'apple'", []), ("str ==[c] 'apple'", [3]),
        ("str BEGINSWITH 'ca'", [2]), ("str BEGINSWITH[c] 'CA'", [1, 2]), ("str ENDSWITH 'a'", [2, 4]),
        ("str CONTAINS 'af'", [1, 2]), ("str CONTAINS[c] 'AF'", [1, 2]), ("str CONTAINS[cd] 'CAFE'", [1, 2]),
        ("str CONTAINS 'cafe'", [2]), ("str ==[cd] 'cafe'", [1]), ("str == 'O\\'Neil'", [6]),
        // NULL: comparisons with a value never match NULL; == nil finds it.
        ("str != 'Apple'", [1, 2, 4, 6]), ("str == nil", [5]), ("str == NIL", [5]), ("str != nil", [1, 2, 3, 4, 6]),
        ("dbl < 2", [1]), ("NOT dbl < 2", [2, 3, 4, 5, 6]),  // NOT is two-valued, as NSPredicate evaluates it
    ])
    func whereSelects(predicate: String, expected: [Int]) throws {
        let box = try Self.seeded()
        #expect(try Self.keys(box, ["--where", predicate]) == expected, "\(predicate)")
        #expect(try box.ok(["count", "Item", "--where", predicate]) == "\(expected.count)\n", "\(predicate)")
    }

    @Test func formatArguments() throws {
        let box = try Self.seeded()
        #expect(try Self.keys(box, ["--where", "str == %@", "--arg", "O'Neil"]) == [6])
        #expect(try Self.keys(box, ["--where", "%K == %@", "--arg", "str", "--arg", "banana"]) == [4])
        #expect(try Self.keys(box, ["--where", "i32 > %@", "--arg", "-1", "--limit", "1"]) == [1])
        #expect(try box.ok(["count", "Item", "--where", "%K BEGINSWITH[c] %@", "--arg", "str", "--arg", "c"]) == "2\n")
    }

    @Test func sortLimitOffset() throws {
        let box = try Self.seeded()
        #expect(try Self.keys(box, ["--sort", "-i32"]) == [6, 5, 4, 3, 2, 1])
        #expect(try Self.keys(box, ["--sort=-i32", "--limit", "2", "--offset", "1"]) == [5, 4])
        #expect(try Self.keys(box, ["--sort", "i32", "--offset", "4"]) == [5, 6])
        #expect(try Self.keys(box, ["--limit", "0"]) == [])
        // Case-sensitive: NULL first, then upper case before lower case; :ci ignores case.
        #expect(try Self.keys(box, ["--sort", "str"]) == [5, 3, 1, 6, 4, 2])
        #expect(try Self.keys(box, ["--sort", "str:ci"]) == [5, 3, 4, 2, 1, 6])
        #expect(try Self.keys(box, ["--sort", "-flag", "--sort", "i32"]) == [1, 3, 2, 4, 5, 6])
    }

    @Test func predicateSyntaxErrorShowsACaret() throws {
        let box = try Self.seeded()
        let result = try box.run(["fetch", "Item", "--where", "str == 'a' AND (i32 > 3"])
        #expect(result.status == 1)
        #expect(result.stderr == """
            error: --where: unclosed '(' at column 16
              str == 'a' AND (i32 > 3
                             ^

            """)
        #expect(result.stdout == "")
    }

    @Test func unknownEntityInFetch() throws {
        let box = try Self.seeded()
        let result = try box.run(["fetch", "Itme"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: no entity 'Itme' in the model; did you mean 'Item'?\n")
    }

    @Test func subEntitiesCarryTheirEntityName() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Circle", "label=c", "radius=2"])
        try box.ok(["insert", "Square", "label=s", "side=3"])
        #expect(try box.ok(["fetch", "Shape", "--format", "ndjson"]) == """
            {"_id":"x-coredata://<store-uuid>/Circle/p1","_entity":"Circle","label":"c","radius":2}
            {"_id":"x-coredata://<store-uuid>/Square/p2","_entity":"Square","label":"s","side":3}

            """)
        #expect(try box.ok(["fetch", "Shape", "--format", "csv"]) == "_id,_entity,label,radius,side\nx-coredata://<store-uuid>/Circle/p1,Circle,c,2,\n"
                + "x-coredata://<store-uuid>/Square/p2,Square,s,,3\n")
        #expect(try box.ok(["fetch", "Shape", "--exact-entity", "--format", "json"]) == "[]\n")
        #expect(try box.ok(["fetch", "Circle", "--format", "ndjson"]) == "{\"_id\":\"x-coredata://<store-uuid>/Circle/p1\",\"label\":\"c\",\"radius\":2}\n")
        #expect(try box.ok(["count", "Shape"]) == "2\n")
        #expect(try box.ok(["count", "Shape", "--exact-entity"]) == "0\n")
        #expect(try box.ok(["fetch", "Shape", "--where", "label == 's'", "--format", "csv"]) == "_id,_entity,label,radius,side\nx-coredata://<store-uuid>/Square/p2,Square,s,,3\n")
    }

    @Test func deleteWhereAndAll() throws {
        let box = try Self.seeded()
        #expect(try box.ok(["delete", "Item", "--where", "i32 > 4"]) == "deleted 2 objects\n")
        #expect(try box.ok(["delete", "Item", "--where", "i32 == %@", "--arg", "1"]) == "deleted 1 object\n")
        #expect(try Self.keys(box, []) == [2, 3, 4])
        #expect(try box.ok(["delete", "Item", "--all"]) == "deleted 3 objects\n")
        #expect(try box.ok(["count", "Item"]) == "0\n")
    }

    @Test func globalOptionsBeforeOrAfterTheSubcommand() throws {
        let box = try Self.seeded()
        let after = try CLIRunner.run(["fetch", "Item", "--format", "csv", "--store", box.store, "--model", box.model])
        let before = try CLIRunner.run(["--store", box.store, "--model", box.model, "fetch", "Item", "--format", "csv"])
        let mixed = try CLIRunner.run(["--store=\(box.store)", "fetch", "--model", box.model, "Item", "--format", "csv"])
        #expect(after.status == 0 && before.status == 0 && mixed.status == 0)
        #expect(before.stdout == after.stdout && mixed.stdout == after.stdout)
        #expect(after.stdout.split(separator: "\n").count == 7)
    }

    @Test func environmentGivesModelAndStore() throws {
        let box = try Sandbox()
        let env = ["CDSTORE_MODEL": box.model, "CDSTORE_STORE": box.store]
        let insert = try CLIRunner.run(["insert", "Item", "i16=4"], environment: env)
        #expect(insert.status == 0 && insert.stdout == "inserted 1 object into Item\n")
        #expect(try CLIRunner.run(["count", "Item"], environment: env).stdout == "1\n")
        // Options win over the environment.
        let other = box.path("other.sqlite")
        #expect(try CLIRunner.run(["insert", "Item", "i16=5", "--store", other], environment: env).status == 0)
        #expect(try CLIRunner.run(["count", "Item"], environment: env).stdout == "1\n")
        // Without either, the command says what is missing.
        let bare = try CLIRunner.run(["count", "Item"])
        #expect(bare.status == 2 && bare.stderr == "error: no store: give --store PATH or set CDSTORE_STORE\n")
        let show = try CLIRunner.run(["model", "hashes"], environment: ["CDSTORE_MODEL": box.model])
        #expect(show.status == 0 && show.stdout.hasPrefix("Checked "))
    }

    @Test func storeMadeByCdstoreOpensWithoutModel() throws {
        let box = try Self.seeded()
        let result = try CLIRunner.run(["fetch", "Item", "--store", box.store, "--format", "csv", "--where", "i32 == 3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(",true,,,3,,,Apple,,,\n"))
        let insert = try CLIRunner.run(["insert", "Item", "i32=7", "--store", box.store])
        #expect(insert.status == 0)
        #expect(try box.ok(["count", "Item"]) == "7\n")
    }
}
