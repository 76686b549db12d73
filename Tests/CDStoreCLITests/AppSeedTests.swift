import CDStoreTestSupport
import Foundation
import Testing

/// Seeding from the JSON apps ship (Schemas/demo/app-seed): an API envelope with nested objects and keys the
/// model lacks, a hand-written array with trailing commas, and files named in the JSON.
@Suite struct AppSeedTests {
    static let folder = Corpus.packageRoot.appendingPathComponent("Schemas/demo/app-seed").path
    static let model = Corpus.packageRoot.appendingPathComponent("Schemas/AppSeed.json").path
    static func file(_ name: String) -> String { folder + "/" + name }

    static func sandbox() throws -> Sandbox { try Sandbox(model: model) }

    static let venueNote = "note: ignored 11 keys the model lacks in 2 Venue records: categories, contact.twitter, hereNow, id, "
        + "location.address, location.lat, location.lng, price.message, specials, stats.usersCount, verified\n"

    @Test func anEnvelopeWithARootAndAMapIgnoresAndListsTheKeysTheModelLacks() throws {
        let box = try Self.sandbox()
        let result = try box.run(["insert", "Venue", "--file", Self.file("venues-response.json"), "--root", "response.venues",
                                  "--map", Self.file("venues-map.json")])
        #expect(result.status == 0)
        #expect(result.stdout == "inserted 2 objects into Venue\n")
        #expect(result.stderr == Self.venueNote)
        expectNDJSON(try box.ok(["fetch", "Venue", "--format", "ndjson", "--sort", "name"]), [
            #"{"_id":"x-coredata://<store-uuid>/Venue/p1","name":"Blue Bottle Coffee","phone":"4155550100","city":"San Francisco","priceTier":2,"checkins":20511}"#,
            #"{"_id":"x-coredata://<store-uuid>/Venue/p2","name":"Tartine Bakery","phone":null,"city":"San Francisco","priceTier":3,"checkins":31877}"#,
        ])
    }

    @Test func strictAndIgnoreUnknownChangeTheOutcome() throws {
        let box = try Self.sandbox()
        let venues = ["insert", "Venue", "--file", Self.file("venues-response.json"), "--root", "response.venues"]
        // Without a mapping an unknown key is a typo until said otherwise.
        let plain = try box.run(venues)
        #expect(plain.status == 1)
        #expect(plain.stderr == "error: record 1 (line 5): entity 'Venue', attribute 'id': no such attribute or relationship\n")
        // --strict refuses it under a mapping too.
        let strict = try box.run(venues + ["--map", Self.file("venues-map.json"), "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.hasPrefix("error: record 1 (line 5): entity 'Venue', attribute "), "\(strict.stderr)")
        #expect(try box.ok(["count", "Venue"]) == "0\n")
        // --ignore-unknown ignores it without one: nested objects the model has no relationship for included.
        let ignoring = try box.run(venues + ["--ignore-unknown"])
        #expect(ignoring.status == 0)
        #expect(ignoring.stderr == "note: ignored 9 keys the model lacks in 2 Venue records: categories, contact, hereNow, id, "
                + "location, price, specials, stats, verified\n")
        #expect(try box.ok(["count", "Venue"]) == "2\n")
    }

    @Test func rootErrorsNameThePathAndWhatIsThere() throws {
        let box = try Self.sandbox()
        let file = Self.file("venues-response.json")
        for (root, message) in [
            ("response.venue", "error: --root: response.venue: 'response' has no key 'venue' (its keys are venues)\n"),
            ("meta.code", "error: --root: meta.code: the value there is a number, not an array or an object\n"),
            ("response.venues.x", "error: --root: response.venues.x: 'response.venues' is an array, so it has no key 'x'\n"),
            ("nothing", "error: --root: nothing: the document has no key 'nothing' (its keys are meta, response)\n"),
        ] {
            let result = try box.run(["insert", "Venue", "--file", file, "--root", root, "--ignore-unknown"])
            #expect(result.status == 1, "\(root)")
            #expect(result.stderr == message, "\(root): \(result.stderr)")
        }
        // One object at the root is one record.
        let one = try box.write("one.json", #"{"data": {"venue": {"name": "Solo",}}, "more": [1, 2]}"#)
        #expect(try box.ok(["insert", "Venue", "--file", one, "--root", "data.venue"]) == "inserted 1 object into Venue\n")
    }

    @Test func trailingCommasAsAppsWriteThem() throws {
        let box = try Self.sandbox()
        #expect(try box.ok(["insert", "Team", "--file", Self.file("Team.json")]) == "inserted 3 objects into Team\n")
        #expect(try box.ok(["project", "Team", "--properties", "teamName,wins", "--sort", "teamName", "--format", "csv"])
                == "teamName,wins\nAlgeria,0\nArgentina,4\nBelgium,3\n")
    }

    @Test func filesNamedInTheJSONFillABinaryAttributeOfARelatedObject() throws {
        let box = try Self.sandbox()
        #expect(try box.ok(["insert", "Employee", "--file", Self.file("employees.json"), "--map", Self.file("employees-map.json")])
                == "inserted 3 objects into Employee\n")
        let png = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: Self.file("images/" + name))).base64EncodedString() }
        expectNDJSON(try box.ok(["project", "Employee", "--properties", "name,picture.picture", "--sort", "name", "--format", "ndjson"]), [
            #"{"name":"Ann Lee","picture.picture":"\#(try png("face1.png"))"}"#,
            #"{"name":"Bo Martins","picture.picture":"\#(try png("face2.png"))"}"#,
            #"{"name":"Cy Okafor","picture.picture":null}"#,
        ])
        // Cy's null names no file: no EmployeePicture for him.
        #expect(try box.ok(["count", "EmployeePicture"]) == "2\n")
    }

    @Test func aMissingFileNamesRecordLineAndPath() throws {
        let box = try Self.sandbox()
        let input = try box.write("staff/employees.json", """
            [{"name": "Ann", "picture": "face1.png"},
             {"name": "Dee", "picture": "nobody.png"}]
            """)
        try FileManager.default.createDirectory(atPath: box.path("staff/images"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.file("images/face1.png"), toPath: box.path("staff/images/face1.png"))
        let map = Self.file("employees-map.json")
        let result = try box.run(["insert", "Employee", "--file", input, "--map", map])
        #expect(result.status == 1)
        #expect(result.stderr == "error: record 2 (line 2): entity 'Employee', attribute 'picture.picture': file 'nobody.png' "
                + "is missing from \(box.path("staff/images"))\n")
        #expect(try box.ok(["count", "Employee"]) == "0\n")
        let skipping = try box.run(["insert", "Employee", "--file", input, "--map", map, "--skip-invalid"])
        #expect(skipping.status == 1)
        #expect(try box.ok(["count", "Employee"]) == "1\n")
    }

    @Test func seedTakesTheSameOptions() throws {
        let box = try Self.sandbox()
        let data = try box.write("Venue.json", String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.file("venues-response.json"))), as: UTF8.self))
        let out = box.path("Seed.sqlite")
        let result = try CLIRunner.run(["seed", "--model", Self.model, "--out", out, "--root", "response.venues",
                                        "--map", Self.file("venues-map.json"), data])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == Self.venueNote)
        #expect(try CLIRunner.run(["count", "Venue", "--store", out]).stdout == "2\n")
    }
}
