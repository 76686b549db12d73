import CDStoreTestSupport
import Foundation
import Testing

/// Every attribute type of `Item` through insert (JSON, NDJSON, CSV, KEY=VALUE) → fetch → export → insert into a
/// new store → export again.
@Suite("Round trips of every attribute type")
struct RoundTripTests {
    /// The data set, as JSON (one line per record). Floats and doubles that do not print exactly would show here.
    static let records: [String] = [
        #"{"i16":32767,"i32":-2147483648,"i64":9223372036854775807,"dec":12.5,"dbl":0.1,"flt":0.1,"str":"a, \"q\"\nl\tt 😀","flag":true,"when":"2024-05-01T12:30:00Z","blob":"AAEC/w==","uid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","link":"https://example.com/a?b=1&c=%20","xf":"YnBsaXN0MDA="}"#,
        #"{"i16":-32768,"i32":2147483647,"i64":-9223372036854775808,"dec":-0.001,"dbl":1e-300,"flt":3.4028235e38,"str":"","flag":false,"when":"1999-12-31T23:59:59.999Z","blob":"","uid":"00000000-0000-0000-0000-000000000000","link":"file:///tmp/x","xf":"AA=="}"#,
        #"{"dbl":"Infinity","flt":"-Infinity","str":"  padded, \"\" ,\r\n"}"#,
        #"{"dec":null}"#,
    ]

    /// What `fetch --format ndjson` prints for ``records``.
    static let expected = """
        {"_id":"x-coredata://<store-uuid>/Item/p1","blob":"AAEC/w==","dec":12.5,"dbl":0.1,"flag":true,"flt":0.1,"i16":32767,"i32":-2147483648,"i64":9223372036854775807,"link":"https://example.com/a?b=1&c=%20","str":"a, \\"q\\"\\nl\\tt 😀","uid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","when":"2024-05-01T12:30:00.000Z","xf":"YnBsaXN0MDA="}
        {"_id":"x-coredata://<store-uuid>/Item/p2","blob":"","dec":-0.001,"dbl":1e-300,"flag":false,"flt":3.4028235e+38,"i16":-32768,"i32":2147483647,"i64":-9223372036854775808,"link":"file:///tmp/x","str":"","uid":"00000000-0000-0000-0000-000000000000","when":"1999-12-31T23:59:59.999Z","xf":"AA=="}
        {"_id":"x-coredata://<store-uuid>/Item/p3","blob":null,"dec":0,"dbl":"Infinity","flag":null,"flt":"-Infinity","i16":null,"i32":null,"i64":null,"link":null,"str":"  padded, \\"\\" ,\\r\\n","uid":null,"when":null,"xf":null}
        {"_id":"x-coredata://<store-uuid>/Item/p4","blob":null,"dec":null,"dbl":null,"flag":null,"flt":null,"i16":null,"i32":null,"i64":null,"link":null,"str":null,"uid":null,"when":null,"xf":null}

        """

    /// The records as CSV: NULL is an empty field, "" the empty string.
    static let csv = #"""
        i16,i32,i64,dec,dbl,flt,str,flag,when,blob,uid,link,xf
        32767,-2147483648,9223372036854775807,12.5,0.1,0.1,"a, ""q""
        l\#tt 😀",true,2024-05-01T12:30:00Z,AAEC/w==,E621E1F8-C36C-495A-93FC-0C247A3E6E5F,https://example.com/a?b=1&c=%20,YnBsaXN0MDA=
        -32768,2147483647,-9223372036854775808,-0.001,1e-300,3.4028235e38,"",false,1999-12-31T23:59:59.999Z,"",00000000-0000-0000-0000-000000000000,file:///tmp/x,AA==
        ,,,0,Infinity,-Infinity,"  padded, """" ,\#r\#n",,,,,,
        ,,,,,,,,,,,,

        """#

    @Test func jsonInsertFetchesEveryTypeExactly() throws {
        let box = try Sandbox()
        #expect(try box.ok(["insert", "Item", "--json", "[" + Self.records.joined(separator: ",\n") + "]"])
                == "inserted 4 objects into Item\n")
        #expect(try box.ok(["fetch", "Item", "--format", "ndjson"]) == Self.expected)
    }

    @Test func ndjsonFileInsertMatchesJSON() throws {
        let box = try Sandbox()
        let file = try box.write("in.ndjson", Self.records.joined(separator: "\n") + "\n")
        try box.ok(["insert", "Item", "--file", file])
        #expect(try box.ok(["fetch", "Item", "--format", "ndjson"]) == Self.expected)
        // --nl on standard input reads the same.
        let other = box.path("other.sqlite")
        try box.ok(["insert", "Item", "--nl"], stdin: Self.records.joined(separator: "\n"), store: other)
        #expect(try box.ok(["fetch", "Item", "--format", "ndjson"], store: other) == Self.expected)
    }

    @Test func csvInsertKeepsNullApartFromEmptyString() throws {
        let box = try Sandbox()
        // An empty field is NULL even for "dec", which has a default (row 4); "" is the empty string (row 2).
        #expect(try box.ok(["insert", "Item", "--csv"], stdin: Self.csv) == "inserted 4 objects into Item\n")
        #expect(try box.ok(["fetch", "Item", "--format", "ndjson"]) == Self.expected)
        // A .csv file is read as CSV by its extension.
        let file = try box.write("in.csv", Self.csv)
        let other = box.path("other.sqlite")
        try box.ok(["insert", "Item", "--file", file], store: other)
        #expect(try box.ok(["fetch", "Item", "--format", "csv"], store: other) == box.ok(["fetch", "Item", "--format", "csv"]))
        // Leaving the column out gives the default.
        try box.ok(["insert", "Item", "--csv"], stdin: "i16\n7\n")
        #expect(try box.ok(["fetch", "Item", "--where", "i16 == 7", "--format", "csv"])
                == "_id,blob,dec,dbl,flag,flt,i16,i32,i64,link,str,uid,when,xf\nx-coredata://<store-uuid>/Item/p5,,0,,,,7,,,,,,,\n")
    }

    @Test func keyValueInsertMatchesJSON() throws {
        let box = try Sandbox()
        let first = Self.records[0]
        let object = try JSONSerialization.jsonObject(with: Data(first.utf8)) as! [String: Any]
        let assignments = object.keys.sorted().map { key -> String in
            let value = object[key]!
            if let flag = value as? Bool, key == "flag" { return "\(key)=\(flag ? "yes" : "no")" }
            return "\(key)=\(value)"
        }
        // JSONSerialization reads 0.1 as a Double whose description is 0.1, and integers exactly.
        try box.ok(["insert", "Item"] + assignments.map { $0.hasPrefix("i64=") ? "i64=9223372036854775807" : $0 })
        let line = try box.ok(["fetch", "Item", "--format", "ndjson"])
        #expect(line == String(Self.expected.split(separator: "\n")[0]) + "\n")
    }

    @Test func exportReadsBackToTheSameExport() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--json", "[" + Self.records.joined(separator: ",") + "]"])
        for format in ["json", "ndjson", "csv"] {
            let exportFile = box.path("export.\(format)")
            try box.ok(["export", "Item", "--format", format, "--output", exportFile])
            let copy = box.path("copy-\(format).sqlite")
            try box.ok(["insert", "Item", "--file", exportFile], store: copy)
            let again = try box.ok(["export", "Item", "--format", format], store: copy)
            let first = Sandbox.anonymized(String(decoding: FileManager.default.contents(atPath: exportFile) ?? Data(), as: UTF8.self))
            #expect(again == first, "export as \(format) does not read back unchanged")
            #expect(try box.ok(["fetch", "Item", "--format", "ndjson"], store: copy) == box.ok(["fetch", "Item", "--format", "ndjson"]))
        }
        // A whole-store NDJSON export names each object's entity and reads back into Item.
        let ndjson = try box.ok(["export", "--format", "ndjson"])
        // It is the fetch output (``expected``) with "_entity" after each "_id".
        #expect(ndjson == Self.expected.replacingOccurrences(of: #"(\{"_id":"x-coredata://<store-uuid>/Item/p[0-9]+",)"#,
                                                             with: #"$1"_entity":"Item","#, options: .regularExpression))
        let copy = box.path("copy-all.sqlite")
        try box.ok(["insert", "Item", "--nl"], stdin: ndjson, store: copy)
        #expect(try box.ok(["export", "--format", "ndjson"], store: copy) == ndjson)
    }

    @Test func allFourFetchFormatsAgree() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--json", "[" + Self.records.joined(separator: ",") + "]"])
        let json = try Sandbox.objects(box.ok(["fetch", "Item", "--format", "json"]))
        let ndjson = try box.ok(["fetch", "Item", "--format", "ndjson"]).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(json.count == 4 && ndjson.count == 4)
        for (a, b) in zip(json, ndjson) { #expect(NSDictionary(dictionary: a) == NSDictionary(dictionary: b)) }
        let csv = try box.ok(["fetch", "Item", "--format", "csv"])
        // CSV quotes fields with commas, quotes and line breaks (`"  padded, """" ,\r\n"`), NULL is an empty field.
        try assertSnapshot(Sandbox.anonymized(csv), named: "roundtrip-item.csv")
        #expect(csv.hasPrefix("_id,blob,dec,dbl,flag,flt,i16,i32,i64,link,str,uid,when,xf\n"))
        let table = try box.ok(["fetch", "Item", "--format", "table"])
        // Header, rule, 4 rows (the all-NULL row is blank), each on one line: \r, \n and \t are escaped.
        try assertSnapshot(Sandbox.anonymized(table), named: "roundtrip-item.table")
        #expect(table.split(separator: "\n", omittingEmptySubsequences: false).count == 7)
    }

    @Test(arguments: [("true", true), ("false", false), ("yes", true), ("no", false), ("1", true), ("0", false),
                      ("YES", true), ("False", false)])
    func booleanSpellings(text: String, value: Bool) throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "flag=\(text)"])
        #expect(try box.ok(["fetch", "Item", "--format", "csv"])
                == "_id,blob,dec,dbl,flag,flt,i16,i32,i64,link,str,uid,when,xf\nx-coredata://<store-uuid>/Item/p1,,0,,\(value),,,,,,,,,\n")
    }

    @Test(arguments: [
        ("2024-05-01", "2024-05-01T00:00:00.000Z"),
        ("2024-05-01T12:30:00Z", "2024-05-01T12:30:00.000Z"),
        ("2024-05-01T12:30:00.25+02:00", "2024-05-01T10:30:00.250Z"),
        ("2024-05-01T12:30:00-0530", "2024-05-01T18:00:00.000Z"),
        ("2024-05-01 12:30", "2024-05-01T12:30:00.000Z"),
        ("2024-05-01T12:30:00", "2024-05-01T12:30:00.000Z"),
        ("0", "2001-01-01T00:00:00.000Z"),
        ("-86400", "2000-12-31T00:00:00.000Z"),
        ("737057646.84", "2024-05-10T18:14:06.840Z"),
    ])
    func dateSpellings(text: String, iso: String) throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "when=\(text)"])
        expectNDJSON(try box.ok(["fetch", "Item", "--format", "ndjson"]), [#"""
            {"_id":"x-coredata://<store-uuid>/Item/p1","blob":null,"dec":0,"dbl":null,"flag":null,"flt":null,"i16":null,"i32":null,
             "i64":null,"link":null,"str":null,"uid":null,"when":"\#(iso)","xf":null}
            """#])
    }

    @Test func jsonNumbersForDates() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--json", #"[{"when":0},{"when":1.5}]"#])
        let out = try box.ok(["fetch", "Item", "--format", "csv"])
        #expect(out == """
            _id,blob,dec,dbl,flag,flt,i16,i32,i64,link,str,uid,when,xf
            x-coredata://<store-uuid>/Item/p1,,0,,,,,,,,,,2001-01-01T00:00:00.000Z,
            x-coredata://<store-uuid>/Item/p2,,0,,,,,,,,,,2001-01-01T00:00:01.500Z,

            """)
    }

    @Test func nanIsRefusedRatherThanStoredAsNull() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let before = storeBytes(box.store)
        let result = try box.run(["insert", "Item", "dbl=NaN"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: record 1: entity 'Item', attribute 'dbl': NaN cannot be stored: SQLite (and so Core Data) keeps NaN as NULL\n")
        #expect(storeBytes(box.store) == before)
    }

    /// Core Data keeps a Decimal NaN as the text 'NaN' (the corpus's artsy oss_stubbed_data store has ten), so an
    /// export of such a store must import back.
    @Test func decimalNaNIsStoredAsTextAsCoreDataDoesAndRoundTrips() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1", "dec=NaN"])
        let out = try box.ok(["fetch", "Item", "--format", "ndjson", "--no-relationships"])
        expectNDJSON(out, [#"""
            {"_id":"x-coredata://<store-uuid>/Item/p1","blob":null,"dec":"NaN","dbl":null,"flag":null,"flt":null,"i16":1,"i32":null,
             "i64":null,"link":null,"str":null,"uid":null,"when":null,"xf":null}
            """#])
        let exported = try box.ok(["export", "--output", box.path("graph.json")])
        #expect(exported == "exported 1 object to \(box.path("graph.json"))\n")
        let copy = box.path("copy.sqlite")
        try box.ok(["import", box.path("graph.json")], store: copy)
        #expect(try box.ok(["fetch", "Item", "--format", "ndjson", "--no-relationships"], store: copy) == out)
    }

    /// NDJSON written on Windows: CRLF line ends ("\r\n" is one Swift Character, so it was not split as a line).
    @Test func ndjsonWithCRLFLineEndsReadsEveryLine() throws {
        let box = try Sandbox()
        let file = try box.write("items.ndjson", "{\"i16\":1}\r\n{\"i16\":2}\r\n\r\n{\"i16\":3}\r\n")
        #expect(try box.ok(["insert", "Item", "--file", file]) == "inserted 3 objects into Item\n")
        let bad = try box.run(["insert", "Item", "--nl"], stdin: "{\"i16\":4}\r\n{\"i16\":}\r\n")
        #expect(bad.stderr.hasPrefix("error: record 2 (line 2): malformed JSON"))
        #expect(try box.ok(["count", "Item"]) == "3\n")
    }

    /// CSV output writes a to-many relationship as a JSON array of object IDs (`[]` when empty); insert --csv
    /// refused it ("a to-many relationship takes an array, got '[]'").
    @Test func csvToManyColumnReadsBack() throws {
        let box = try Sandbox(model: Corpus.schemas.appendingPathComponent("Company.json").path)
        try box.ok(["insert", "Company", "name=Acme", "id=6F0C2B1E-8E2D-4C57-9A4B-3D1E5A7C9B20"])
        let csv = try box.ok(["fetch", "Company", "--format", "csv"])
        #expect(csv == """
            _id,id,name,founded,revenue,isPublic,logo,website,departments
            x-coredata://<store-uuid>/Company/p1,6F0C2B1E-8E2D-4C57-9A4B-3D1E5A7C9B20,Acme,,0,false,,,[]

            """)
        let other = box.path("other.sqlite")
        #expect(try box.ok(["insert", "Company", "--csv"], stdin: csv, store: other) == "inserted 1 object into Company\n")
        #expect(try box.ok(["fetch", "Company", "--format", "csv"], store: other) == csv)
    }
}
