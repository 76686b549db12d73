import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// Every real model of the corpus written as Xcode XML and read back: compiled models, the models Core Data
/// cached in stores, and every `.xcdatamodeld` version. What Core Data compares (entity version hashes) and what a
/// new store gets (tables, columns, entity numbers, indexes) must come back unchanged.
@Suite("Decompiling corpus models to Xcode XML")
struct DecompileCorpusTests {
    /// Writes `source` as XML, reads it back and returns every difference that matters, one line each, and the
    /// model read back.
    static func roundTrip(_ source: LoadedModel, label: String) throws -> (problems: [String], reread: LoadedModel) {
        let xml = XcodeModelWriter.contents(of: source.model)
        let reread = try XcodeModelReader.read(xml, file: URL(fileURLWithPath: "/decompiled/\(label)/contents"))
        var problems = reread.warnings.map { "warning reading the XML back: \($0)" }
        problems += XcodeModelWriter.limitations(of: source.model).map { "limitation: \($0)" }
        let before = VersionHasher.entityHashes(of: source.model), after = VersionHasher.entityHashes(of: reread.model)
        for name in Set(before.keys).union(after.keys).sorted() where before[name] != after[name] {
            problems.append("entity hash of \(name) differs")
        }
        let original = StoreLayout(model: source.model, options: .init(propertyOrder: source.propertyOrder))
        let layout = StoreLayout(model: reread.model)
        if original.entities != layout.entities {
            let changed = zip(original.entities, layout.entities).filter { $0 != $1 }.map(\.0.name)
            problems.append("entity layouts differ: \(changed.isEmpty ? "count" : changed.joined(separator: ", "))")
        }
        if original.tables != layout.tables {
            problems.append("tables differ: \(original.tables.map(\.createSQL)) vs \(layout.tables.map(\.createSQL))")
        }
        if original.indexes != layout.indexes {
            problems.append("indexes differ: \(original.indexes.map(\.createSQL)) vs \(layout.indexes.map(\.createSQL))")
        }
        // Beyond hashes and layout: nothing the model holds is lost, in the form compiled and XML models compare.
        if ModelComparison.normalised(source.model) != ModelComparison.normalised(reread.model) {
            problems.append("the model read back differs from the source")
        }
        return (problems.map { "\(label): \($0)" }, reread)
    }

    @Test("Every compiled model (.mom of each .momd) reads back with the same hashes and layout")
    func compiledModels() throws {
        var checked = 0
        for folder in try Corpus.compiledModels() {
            let momd = folder.lastPathComponent
            for version in try CompiledModelLoader.versions(ofMomd: folder) {
                let source = try CompiledModelLoader.loadMom(folder.appendingPathComponent(version + ".mom"))
                #expect(!source.propertyOrder.isEmpty)
                let problems = try Self.roundTrip(source, label: "\(momd)/\(version).mom").problems
                #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked == 4, "compiled models checked: \(checked)")
    }

    @Test("Every model cached in a corpus store reads back with the same hashes and layout")
    func storeCaches() throws {
        var checked: [String] = []
        for store in try Corpus.storeFiles() {
            let folder = store.deletingLastPathComponent().lastPathComponent, name = store.lastPathComponent
            let copy = try Corpus.copyStore(store)
            defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
            let source: LoadedModel
            do {
                source = try Store.cachedModel(at: copy.path)
            } catch let error as StoreError where error.code == .noModel {
                continue  // stores of framework 419–519 keep no model (artsy, mwkirk)
            }
            // Stores of framework 419–519 keep no model (artsy, mwkirk): it is inferred from their tables.
            if source.format == .inferredFromTables { continue }
            #expect(source.format == .storeCache && !source.propertyOrder.isEmpty, "\(folder)/\(name)")
            let problems = try Self.roundTrip(source, label: "\(folder)/\(name)").problems
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            checked.append(name)
        }
        #expect(checked == ["CartKitSwiftData_v1.sqlite", "CartStorage_v1.sqlite", "TestModel.sqlite", "Test.sqlite"],
                "stores with a model cache: \(checked)")
    }

    @Test("Every .xcdatamodeld version reads back as the same model, hashes and layout")
    func xcodeVersions() throws {
        var checked = 0
        for version in try Corpus.allModelVersions() {
            let label = version.deletingLastPathComponent().lastPathComponent + "/" + version.lastPathComponent
            let source = try ModelLoader.load(version.path)
            var (problems, reread) = try Self.roundTrip(source, label: label)
            // XML to XML loses nothing at all: the model read back is equal, settings and order included.
            if reread.model != source.model { problems.append("\(label): not equal to the source model") }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            checked += 1
        }
        #expect(checked == 266, "versions checked: \(checked)")
    }
}
