import CDStoreTestSupport
import Foundation
import Testing

/// SwiftData sources on the command line, continued: `--schema` among several schemas, a nil composite printed as
/// `null`, and composites through JSON mapping documents (`insert --map`) and graph import.
@Suite struct SwiftDataCompositeCLITests {
    static let schemas = """
        struct Address: Codable { var street: String?; var city: String? }
        @Model final class Note { var text: String; var place: Address?; init() {} }
        @Model final class Tag { var name: String; init() {} }
        let mainContainer = try ModelContainer(for: Note.self, Tag.self)
        func widgetSchema() -> Schema { Schema([Tag.self]) }
        """

    @Test func schemaChoosesAmongTheSchemasOfTheSources() throws {
        let box = try Sandbox()
        let file = try box.write("Models/App.swift", Self.schemas)
        let widget = try CLIRunner.run(["model", "hashes", file, "--schema", "widgetSchema"])
        #expect(widget.status == 0 && widget.stderr == "")
        let all = try CLIRunner.run(["model", "hashes", file, "--schema", "mainContainer"])
        #expect(all.status == 0 && all.stderr == "")
        try assertSnapshot("--schema widgetSchema\n" + widget.stdout + "--schema mainContainer\n" + all.stdout,
                           named: "model-hashes-schema.txt")
        // Store commands take it too: the widget's store has no Note table.
        let store = box.path("widget.sqlite")
        let insert = try CLIRunner.run(["insert", "Tag", "name=home", "--store", store, "--model", file,
                                        "--schema", "widgetSchema"])
        #expect(insert.status == 0, "\(insert.stderr)")
        let note = try CLIRunner.run(["insert", "Note", "text=x", "--store", store, "--model", file,
                                      "--schema", "widgetSchema"])
        #expect(note.status == 1 && note.stderr.contains("'Note'"))

        let unknown = try CLIRunner.run(["model", "hashes", file, "--schema", "widget"])
        #expect(unknown.status == 1 && unknown.stdout == "")
        #expect(unknown.stderr == "error: no Schema or ModelContainer literal is in a declaration named 'widget' and "
                + "no VersionedSchema is named so; the sources have 'mainContainer' (a ModelContainer literal), "
                + "'widgetSchema' (a Schema literal)\n")
        let xcode = try CLIRunner.run(["model", "hashes", Fixtures.model.path, "--schema", "widgetSchema"])
        #expect(xcode.status == 1)
        #expect(xcode.stderr == "error: \(Fixtures.model.path): schema 'widgetSchema': only SwiftData sources "
                + "(.swift files) have schemas to choose from\n")
    }

    /// Core Data keeps no flag for a nil composite, only NULL in every element column: it reads back as nil,
    /// `null` in JSON and NDJSON (streamed or not) and empty cells in CSV.
    @Test func aNilCompositeIsNull() throws {
        let box = try SwiftDataCLITests.sandbox()
        try box.ok(["insert", "Person", "--nl"], stdin: """
            {"name":"Ann","home":{"street":"1 Rue de Rivoli","city":"Paris"}}
            {"name":"Cy","home":null}
            {"name":"Di"}
            {"name":"Ed","home":{"city":"Cork"}}
            """)
        let json = try box.ok(["fetch", "Person", "--format", "json"])
        let ndjson = try box.ok(["export", "Person", "--format", "ndjson"])
        let general = try CLIRunner.run(["export", "Person", "--format", "ndjson", "--store", box.store,
                                         "--model", box.model], environment: ["CDSTORE_NO_STREAMING": "1"])
        #expect(Sandbox.anonymized(general.stdout) == ndjson)
        let csv = try box.ok(["export", "Person", "--format", "csv"])
        try assertSnapshot(json + ndjson + csv, named: "swiftdata-nil-composite.txt")
        #expect(try box.ok(["count", "Person", "--where", "home.city == nil"]) == "2\n")
    }

    @Test func aMappingDocumentTakesComposites() throws {
        let box = try SwiftDataCLITests.sandbox()
        let whole = try box.write("whole.json", #"{"Person":{"keys":{"name":"full_name","home":"address"}}}"#)
        try box.ok(["insert", "Person", "--map", whole, "--nl"], stdin: """
            {"full_name":"Ann","address":{"street":"1 Main","city":"Paris"}}
            {"full_name":"Bo","address":null}
            {"full_name":"Cy","home":{"city":"Rome"}}
            """)
        let elements = try box.write("elements.json",
                                     #"{"Person":{"keys":{"home.street":"addr.line1","home.city":"addr.town"}}}"#)
        try box.ok(["insert", "Person", "--map", elements, "--json",
                    #"{"name":"Di","addr":{"line1":"2 Side","town":"Oslo"}}"#])
        #expect(try box.ok(["fetch", "Person", "--format", "ndjson"]) == """
            {"_id":"x-coredata://<store-uuid>/Person/p1","name":"Ann","home":{"street":"1 Main","city":"Paris"},"pets":[]}
            {"_id":"x-coredata://<store-uuid>/Person/p2","name":"Bo","home":null,"pets":[]}
            {"_id":"x-coredata://<store-uuid>/Person/p3","name":"Cy","home":{"street":null,"city":"Rome"},"pets":[]}
            {"_id":"x-coredata://<store-uuid>/Person/p4","name":"Di","home":{"street":"2 Side","city":"Oslo"},"pets":[]}

            """)
        let bad = try box.run(["insert", "Person", "--map",
                               box.write("bad.json", #"{"Person":{"keys":{"home.town":"t"}}}"#), "--json", "{}"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "error: entity 'Person': mapping file: composite attribute 'home' has no element "
                + "'town' in 'home.town'\n")

        // A graph export and import keep them too.
        let graph = box.path("graph.ndjson")
        try box.ok(["export", "--format", "ndjson", "--output", graph])
        let copy = box.path("copy.sqlite")
        try box.ok(["import", graph], store: copy)
        #expect(try box.ok(["export", "Person", "--format", "csv"], store: copy)
                == box.ok(["export", "Person", "--format", "csv"]))
    }

    /// The other model kind: an Xcode model declaring the composite (`compositeAttribute`, as `model compile`
    /// writes the sources) takes and prints composites the same way, through a mapping and as null.
    @Test func anXcodeModelsCompositesWorkTheSame() throws {
        let sources = try SwiftDataCLITests.sandbox()
        let xcode = sources.path("People.xcdatamodel")
        let compiled = try CLIRunner.run(["model", "compile", sources.model, "--output", xcode])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let box = try Sandbox(model: xcode)
        let map = try box.write("map.json", #"{"Person":{"keys":{"home.city":"town"}}}"#)
        try box.ok(["insert", "Person", "--map", map, "--nl"], stdin: """
            {"name":"Ann","town":"Paris"}
            {"name":"Bo"}
            """)
        try box.ok(["insert", "Person", "--json", #"{"name":"Cy","home":{"street":"1 Quay","city":"Cork"}}"#])
        #expect(try box.ok(["fetch", "Person", "--where", "home.city != nil", "--sort", "-home.city", "--format",
                            "ndjson"]) == """
            {"_id":"x-coredata://<store-uuid>/Person/p1","name":"Ann","home":{"street":null,"city":"Paris"},"pets":[]}
            {"_id":"x-coredata://<store-uuid>/Person/p3","name":"Cy","home":{"street":"1 Quay","city":"Cork"},"pets":[]}

            """)
        #expect(try box.ok(["export", "Person", "--format", "ndjson"]).contains(#""name":"Bo","home":null,"#))
    }
}
