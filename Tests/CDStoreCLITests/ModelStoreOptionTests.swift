import CDStoreTestSupport
import Foundation
import Testing

/// `--store` on every `model` subcommand: the model a store caches, as `cdstore` prints, checks, compiles,
/// hashes and compares it. Corpus stores are copied first, and must be left as they were.
@Suite("model subcommands with --store")
struct ModelStoreOptionTests {
    /// A corpus store with a model cache, and the model version it was written with when the corpus knows it.
    struct Item: Sendable, CustomStringConvertible {
        var store: String
        var modelVersion: String?
        var description: String { store }
    }

    static let cachingStores: [Item] = [
        Item(store: "stores/Karim-ezzedine__CartKit__CartKitSwiftData_v1/CartKitSwiftData_v1.sqlite"),
        Item(store: "stores/Karim-ezzedine__CartKit__CartStorage_v1/CartStorage_v1.sqlite",
             modelVersion: "models/Karim-ezzedine__CartKit__CartStorage-48ffe53.xcdatamodeld/CartStorage.xcdatamodel"),
        Item(store: "stores/bignerdranch__CoreDataStack__TestModel/TestModel.sqlite",
             modelVersion: "models/bignerdranch__CoreDataStack__Sample.xcdatamodeld/TestModel.xcdatamodel"),
        Item(store: "stores/contentful__contentful-persistence.swift__Test/Test.sqlite",
             modelVersion: "models/contentful__contentful-persistence.swift__Test.xcdatamodeld/Test.xcdatamodel"),
    ]

    static func copy(_ item: Item) throws -> String {
        try Corpus.copyStore(Corpus.root.appendingPathComponent(item.store)).path
    }

    static func corpusPath(_ relative: String) -> String { Corpus.root.appendingPathComponent(relative).path }

    /// Runs a command that must succeed with nothing on standard error, and returns its output.
    static func ok(_ arguments: [String], environment: [String: String] = [:],
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try CLIRunner.run(arguments, environment: environment)
        #expect(result.status == 0 && result.stderr.isEmpty, "cdstore \(arguments.joined(separator: " ")): \(result.stderr)",
                sourceLocation: sourceLocation)
        return result.stdout
    }

    /// `NSStoreModelVersionHashes` of the store's metadata as `model hashes` prints them, read with Python's
    /// sqlite3 and plistlib.
    static func metadataHashes(_ store: String) throws -> String {
        try ProcessRunner.python("""
            import base64, plistlib, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            hashes = plistlib.loads(db.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])['NSStoreModelVersionHashes']
            for name in sorted(hashes):
                print(name, base64.b64encode(hashes[name]).decode())
            """, [store]).stdout
    }

    @Test("model hashes --store prints the store's NSStoreModelVersionHashes", arguments: cachingStores)
    func hashesEqualTheStores(item: Item) throws {
        let store = try Self.copy(item)
        let before = storeBytes(store)
        let expected = try Self.metadataHashes(store)
        #expect(!expected.isEmpty)
        #expect(try Self.ok(["model", "hashes", "--store", store]) == expected)
        #expect(storeBytes(store) == before, "the store is only read")
    }

    @Test("--immutable reads the store's model without changing a byte of the store, its -wal or its -shm")
    func immutable() throws {
        let store = try Self.copy(Self.cachingStores[3])
        let files = ["", "-wal", "-shm"].map { store + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }
        #expect(try Self.ok(["model", "hashes", "--store", store, "--immutable"]) == Self.metadataHashes(store))
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before)
    }

    @Test("model show and validate --store print what the model file the store was written with gives",
          arguments: cachingStores.filter { $0.modelVersion != nil })
    func showAndValidate(item: Item) throws {
        let store = try Self.copy(item)
        let version = Self.corpusPath(try #require(item.modelVersion))
        for format in ["text", "json"] {
            #expect(try Self.ok(["model", "show", "--store", store, "--format", format])
                    == Self.ok(["model", "show", version, "--format", format]))
        }
        #expect(try Self.ok(["model", "validate", "--store", store]) == "ok\n")
        #expect(try Self.ok(["model", "diff", "--store", store, version]) == "")
    }

    @Test("model show --store reads a SwiftData store, whose only schema is its model cache")
    func swiftDataStore() throws {
        let store = try Self.copy(Self.cachingStores[0])
        try assertSnapshot(Sandbox.anonymized(try Self.ok(["model", "show", "--store", store])), named: "model-show-swiftdata-store.txt")
    }

    @Test("model diff --store lists what a migration of the store to the given model changes")
    func diffAgainstNewerModel() throws {
        let store = try Self.copy(Self.cachingStores[1])
        let output = try Self.ok(["model", "diff", "--store", store,
                                  Self.corpusPath("models/Karim-ezzedine__CartKit__CartStorage.xcdatamodeld")])
        #expect(output == """
            attribute added: CDCart.promotionKindsJSON (Binary, optional)
            attribute added: CDCart.sessionId (String, optional)
            relationship inverse changed: CDCartItem.modifiers (none → item)
            relationship inverse changed: CDCartItemModifier.item (none → modifiers)

            """)
        let bnr = try Self.copy(Self.cachingStores[2])
        #expect(try Self.ok(["model", "diff", "--store", bnr,
                             Self.corpusPath("models/bignerdranch__CoreDataStack__Sample.xcdatamodeld")]) == """
            relationship added: Book.publisher (to-one Publisher)
            entity added: Publisher

            """)
    }

    @Test("model compile --store writes an Xcode model and a JSON model with the store's hashes",
          arguments: cachingStores)
    func compileStoreModel(item: Item) throws {
        let store = try Self.copy(item)
        let folder = try temporaryDirectory()
        let bundle = folder.appendingPathComponent("Recovered.xcdatamodeld").path
        let json = folder.appendingPathComponent("Recovered.json").path
        #expect(try Self.ok(["model", "compile", "--store", store, "-o", bundle]) == "")
        #expect(try Self.ok(["model", "compile", "--store", store, "-o", json]) == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle).sorted()
                == [".xccurrentversion", "Recovered.xcdatamodel"])
        let expected = try Self.metadataHashes(store)
        #expect(try Self.ok(["model", "hashes", bundle]) == expected)
        #expect(try Self.ok(["model", "hashes", json]) == expected)
        #expect(try Self.ok(["model", "diff", "--store", store, bundle]) == "")
    }

    @Test("model compile writes every version of a .momd as an .xcdatamodeld")
    func compileMomd() throws {
        let momd = Self.corpusPath("compiled/SwiftGen__SwiftGen__Model.momd")
        let bundle = try temporaryDirectory().appendingPathComponent("Model.xcdatamodeld").path
        #expect(try Self.ok(["model", "compile", momd, "-o", bundle]) == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle).sorted()
                == [".xccurrentversion", "Model 2.xcdatamodel", "Model.xcdatamodel"])
        for version in ["Model", "Model 2"] {
            #expect(try Self.ok(["model", "hashes", bundle, "--model-version", version])
                    == Self.ok(["model", "hashes", momd, "--model-version", version]))
        }
        #expect(try Self.ok(["model", "hashes", bundle]) == Self.ok(["model", "hashes", momd, "--model-version", "Model 2"]))
    }

    @Test("$CDSTORE_STORE is used when no model is named; $CDSTORE_MODEL and a named model come first")
    func environment() throws {
        let store = try Self.copy(Self.cachingStores[3])
        let hashes = try Self.metadataHashes(store)
        #expect(try Self.ok(["model", "hashes"], environment: ["CDSTORE_STORE": store]) == hashes)
        #expect(try Self.ok(["--store", store, "--read-only", "model", "hashes"]) == hashes)
        let fixture = try Self.ok(["model", "hashes", Fixtures.model.path])
        #expect(try Self.ok(["model", "hashes"], environment: ["CDSTORE_STORE": store, "CDSTORE_MODEL": Fixtures.model.path])
                == fixture)
        #expect(try Self.ok(["model", "hashes", Fixtures.model.path], environment: ["CDSTORE_STORE": store]) == fixture)
    }

    @Test("In the REPL, `model … --store S` reads the store's model even when the session has a model")
    func repl() throws {
        let store = try Self.copy(Self.cachingStores[3])
        let result = try CLIRunner.run(["repl", "--model", Fixtures.model.path, "--store", store],
                                       stdin: "model hashes --store \(store)\nmodel hashes\n")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == (try Self.metadataHashes(store)) + (try Self.ok(["model", "hashes", Fixtures.model.path])))
    }

    @Test("Errors: no store, a model and --store together, a diff with two models and --store")
    func errors() throws {
        let artsy = try Corpus.copyStore(Corpus.root.appendingPathComponent(
            "stores/artsy__energy__Migrations/ArtsyPartner_1.3.sqlite")).path
        let store = try Self.copy(Self.cachingStores[3])
        let missing = try temporaryDirectory().appendingPathComponent("missing.sqlite").path
        let cases: [([String], Int32, String)] = [
            (["model", "hashes", "--store", missing], 4, "error: no store at \(missing)\n"),
            (["model", "validate", Fixtures.model.path, "--store", store], 2,
             "error: give a model (\(Fixtures.model.path)) or --store \(store), not both\n"),
            (["model", "compile", "--model", Fixtures.model.path, "--store", store], 2,
             "error: give a model (\(Fixtures.model.path)) or --store \(store), not both\n"),
            (["model", "diff", Fixtures.model.path, Fixtures.model.path, "--store", store], 2,
             "error: with --store, FROM is the store's model: give one model to compare it with\n"),
            (["model", "diff", "--store", store], 2,
             "error: give the model to compare the store's model with (an argument, --model or CDSTORE_MODEL)\n"),
            (["model", "show"], 2,
             "error: no model: give it as an argument, with --model or --store, or in CDSTORE_MODEL or CDSTORE_STORE\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == status && result.stderr == stderr && result.stdout.isEmpty,
                    "cdstore \(arguments.joined(separator: " ")): \(result.status) \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "a missing store is not created")
        // A store that carries no model: its model is inferred from the tables, and said so once.
        let inferred = try CLIRunner.run(["model", "show", "--store", artsy])
        #expect(inferred.status == 0 && !inferred.stdout.isEmpty)
        #expect(inferred.stderr == "warning: the store carries no model (no Z_MODELCACHE) and none was given: the model "
                + "was inferred from the tables (names as the columns give them); reading works, writing needs a model\n")
    }
}
