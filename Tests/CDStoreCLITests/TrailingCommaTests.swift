import CDStoreTestSupport
import Foundation
import Testing

/// Seed files written by hand for apps carry trailing commas, which Apple's JSONSerialization reads; so does
/// every cdstore command that reads JSON records, at every depth, while other mistakes stay errors.
@Suite struct TrailingCommaTests {
    @Test func insertReadsTrailingCommasAtEveryDepth() throws {
        let box = try Sandbox()
        let file = try box.write("items.json", """
            [
              { "i16": 1, "str": "a", },
              { "i16": 2, "str": "b", },
            ]

            """)
        #expect(try box.ok(["insert", "Item", "--file", file]) == "inserted 2 objects into Item\n")
        expectNDJSON(try box.ok(["project", "Item", "--properties", "i16,str", "--sort", "i16", "--format", "ndjson"]),
                     [#"{"i16":1,"str":"a"}"#, #"{"i16":2,"str":"b"}"#])
        // The same through --json, and one object on its own.
        #expect(try box.ok(["insert", "Item", "--json", #"{"i16": 3, "str": "c",}"#]) == "inserted 1 object into Item\n")
    }

    @Test func otherMistakesStayErrorsWithLineAndColumn() throws {
        let box = try Sandbox()
        for (text, message) in [
            ("[,]", "malformed JSON at line 1, column 2: unexpected character ','"),
            ("[{\"i16\": 1},,]", "malformed JSON at line 1, column 13: unexpected character ','"),
            ("[{\"i16\": 1} {\"i16\": 2}]", "malformed JSON at line 1, column 13: expected ',' or ']'"),
        ] {
            let result = try box.run(["insert", "Item", "--json", text])
            #expect(result.status == 1)
            #expect(result.stderr.contains(message), "\(text): \(result.stderr)")
        }
        #expect(try box.ok(["count", "Item"]) == "0\n")
    }

    @Test func graphDocumentsReadTrailingCommas() throws {
        let box = try Sandbox()
        let document = try box.write("graph.json", """
            {"format": "cdstore-graph", "formatVersion": 1,
             "entities": {
               "Item": [
                 {"_id": "x-coredata://00000000-0000-0000-0000-000000000000/Item/p1", "i16": 5, },
               ],
             },
            }

            """)
        let result = try box.run(["import", document])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try box.ok(["count", "Item", "--where", "i16 == 5"]) == "1\n")
    }
}
