import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreModel

/// Writing a model in the form its path names: Xcode bundles with every version, single versions, JSON.
@Suite("Model file writer")
struct ModelFileWriterTests {
    static let swiftGenMomd = Corpus.compiled.appendingPathComponent("SwiftGen__SwiftGen__Model.momd")
    static let swiftGenBundle = Corpus.models.appendingPathComponent("SwiftGen__SwiftGen__Model.xcdatamodeld")

    static func base64(_ hashes: [String: [UInt8]]) -> [String: String] {
        hashes.mapValues { Data($0).base64EncodedString() }
    }

    /// The folder's entries, hidden ones included, sorted.
    static func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("A .momd becomes an .xcdatamodeld with every version and the right .xccurrentversion")
    func momdToBundle() throws {
        let out = try temporaryDirectory().appendingPathComponent("Model.xcdatamodeld")
        let versions = try ModelLoader.loadVersions(Self.swiftGenMomd.path)
        #expect(versions.versions.map(\.versionName) == ["Model", "Model 2"] && versions.current.versionName == "Model 2")
        let problems = try ModelFileWriter.write(versions, to: out.path)
        #expect(problems.isEmpty)
        #expect(try Self.listing(out) == [".xccurrentversion", "Model 2.xcdatamodel", "Model.xcdatamodel"])
        // Byte for byte the file Xcode wrote into the source bundle of this .momd, which names the same version.
        #expect(try Data(contentsOf: out.appendingPathComponent(".xccurrentversion"))
                == Data(contentsOf: Self.swiftGenBundle.appendingPathComponent(".xccurrentversion")))
        #expect(ModelLoader.currentVersion(ofBundle: out) == "Model 2")

        // The bundle loads to the same current model, and every version hashes as Apple's VersionInfo.plist says.
        let current = try ModelLoader.load(out.path)
        #expect(current.versionName == "Model 2" && current.availableVersions == ["Model", "Model 2"])
        #expect(ModelComparison.normalised(current.model) == ModelComparison.normalised(versions.current.model))
        let info = try #require(try CompiledModelLoader.versionInfo(ofMomd: Self.swiftGenMomd))
        for name in ["Model", "Model 2"] {
            let written = try ModelLoader.load(out.path, version: name).model
            let expected = try #require(info.versionHashes[name])
            #expect(Self.base64(VersionHasher.entityHashes(of: written)) == Self.base64(expected), "\(name)")
        }
    }

    @Test("An .xcdatamodeld is written with every version; --model-version marks another one current")
    func bundleToBundle() throws {
        let bundle = Corpus.models.appendingPathComponent("mwkirk__MWKCoreData__MWKCoreDataTests.xcdatamodeld")
        let out = try temporaryDirectory().appendingPathComponent("Tests.xcdatamodeld")
        try ModelFileWriter.write(try ModelLoader.loadVersions(bundle.path), to: out.path)
        #expect(try Self.listing(out) == [".xccurrentversion", "MWKCoreDataTests.xcdatamodel",
                                          "MWKCoreDataTests2.xcdatamodel", "MWKCoreDataTests3.xcdatamodel"])
        // The source marks its oldest version current, and so does the copy.
        #expect(ModelLoader.currentVersion(ofBundle: out) == "MWKCoreDataTests")
        for name in try ModelLoader.versions(ofBundle: bundle) {
            #expect(try ModelLoader.load(out.path, version: name).model == ModelLoader.load(bundle.path, version: name).model)
        }
        try ModelFileWriter.write(try ModelLoader.loadVersions(bundle.path, current: "MWKCoreDataTests3"), to: out.path)
        #expect(ModelLoader.currentVersion(ofBundle: out) == "MWKCoreDataTests3")
    }

    @Test("A single model becomes a one-version bundle named after its version or the output")
    func singleModelBundles() throws {
        let folder = try temporaryDirectory()
        let mom = Corpus.compiled.appendingPathComponent("Karim-ezzedine__CartKit__CartStorage.momd/CartStorage.mom")
        let fromMom = folder.appendingPathComponent("Cart.xcdatamodeld")
        try ModelFileWriter.write(try ModelLoader.loadVersions(mom.path), to: fromMom.path)
        #expect(try Self.listing(fromMom) == [".xccurrentversion", "CartStorage.xcdatamodel"])
        #expect(ModelLoader.currentVersion(ofBundle: fromMom) == "CartStorage")

        let json = folder.appendingPathComponent("Cart.json")
        try ModelFileWriter.write(try ModelLoader.loadVersions(mom.path), to: json.path)
        let fromJSON = folder.appendingPathComponent("Shop.xcdatamodeld")
        try ModelFileWriter.write(try ModelLoader.loadVersions(json.path), to: fromJSON.path)
        #expect(try Self.listing(fromJSON) == [".xccurrentversion", "Shop.xcdatamodel"])
        #expect(try ModelLoader.load(fromJSON.path).model.entities == ModelLoader.load(mom.path).model.entities)
    }

    @Test("An .xcdatamodel output holds the current version's contents; an existing output is replaced whole")
    func versionFolderAndReplacement() throws {
        let folder = try temporaryDirectory()
        let out = folder.appendingPathComponent("Current.xcdatamodel")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: out.appendingPathComponent("layout"))
        let versions = try ModelLoader.loadVersions(Self.swiftGenBundle.path)
        try ModelFileWriter.write(versions, to: out.path)
        #expect(try Self.listing(out) == ["contents"])
        #expect(try Data(contentsOf: out.appendingPathComponent("contents"))
                == XcodeModelWriter.contents(of: versions.current.model))
        #expect(try Self.listing(folder) == ["Current.xcdatamodel"], "no staging folder is left behind")

        let file = folder.appendingPathComponent("File.xcdatamodeld")
        try Data().write(to: file)
        let error = #expect(throws: ModelError.self) { try ModelFileWriter.write(versions, to: file.path) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.description == "\(file.path): a file is in the way (an Xcode model is a folder)")
    }

    @Test("The output's extension picks the form", arguments: [
        ("App.xcdatamodeld", ModelFileWriter.Format.xcdatamodeld), ("App.XCDATAMODEL", .xcdatamodel),
        ("App.json", .json), ("model.txt", .json), ("App", .json),
    ])
    func formats(path: String, format: ModelFileWriter.Format) throws {
        #expect(try ModelFileWriter.Format(path: path) == format)
    }

    @Test("Compiled forms are refused", arguments: ["App.mom", "App.momd", "App.omo"])
    func compiledRefused(path: String) {
        #expect(throws: ModelError(.unsupportedFormat, "cdstore does not write compiled models; write an "
                                   + ".xcdatamodeld and compile it with Xcode (or use the JSON model)", file: path)) {
            try ModelFileWriter.Format(path: path)
        }
    }
}
