import CDStore
import CDStoreSwiftData
import CDStoreTestSupport
import Foundation
import Testing

/// Models are read without the Swift source reader unless it is passed: a SwiftData path given as `.path` or
/// `ModelFile(contentsOf:)` is ``CDStoreError/Code/swiftDataUnavailable`` (the code a program keys on to fall back
/// to one that has it), naming the path, and nothing is written; with the reader passed (`readers: .swiftData`,
/// `.swiftData(_:)`, both from `import CDStoreSwiftData`) the same paths work.
@Suite struct SwiftDataReaderTests {
    static let source = """
        @Model final class Trip { var name: String; init() {} }
        """

    /// A folder `Models` holding `Trip.swift`, and a store path beside it that does not exist yet.
    func sources() throws -> (folder: URL, file: URL, store: String) {
        let root = try temporaryDirectory()
        let folder = root.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Trip.swift")
        try Data(Self.source.utf8).write(to: file)
        return (folder, file, root.appendingPathComponent("New.store").path)
    }

    func checkUnavailable(_ error: CDStoreError?, path: String) {
        #expect(error?.code == .swiftDataUnavailable)
        #expect(error?.file == path)
        #expect(error?.description == path + ": these are SwiftData sources, and this program reads models without the "
                + "Swift source reader (swift-syntax): import CDStoreSwiftData and load them with its reader")
    }

    @Test func withoutTheReaderCreatingAStoreFailsBeforeWritingAnything() throws {
        let (folder, file, store) = try sources()
        for path in [file.path, folder.path] {
            let error = #expect(throws: CDStoreError.self) { try CDStore(path: store, model: .path(path), options: [.create]) }
            checkUnavailable(error, path: path)
            let file = #expect(throws: CDStoreError.self) { try ModelFile(contentsOf: path) }
            checkUnavailable(file, path: path)
            let versions = #expect(throws: CDStoreError.self) { try ModelFile.versions(at: path) }
            checkUnavailable(versions, path: path)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
                    == ["Models"])
        }
    }

    @Test func withoutTheReaderAnExistingStoreIsLeftAsItWas() throws {
        let (folder, _, store) = try sources()
        _ = try CDStore(path: store, model: .path(Corpus.schemas.appendingPathComponent("People.json").path), options: [.create])
        let before = storeBytes(store)
        let error = #expect(throws: CDStoreError.self) {
            try CDStore(path: store, model: .path(folder.path), options: [.migrate])
        }
        checkUnavailable(error, path: folder.path)
        #expect(storeBytes(store) == before)
    }

    @Test(arguments: [false, true])
    func withTheReaderTheSamePathsOpen(throughModelFile: Bool) throws {
        let (folder, file, store) = try sources()
        for (index, path) in [file.path, folder.path].enumerated() {
            let model: CDStore.Model = throughModelFile ? .file(try ModelFile(contentsOf: path, readers: .swiftData))
                : try .swiftData(path)
            let opened = try CDStore(path: store + "\(index)", model: model, options: [.create])
            let names = try opened.write { ctx in
                try ctx.insert("Trip", ["name": "Lisbon"])
                return try ctx.fetch("Trip").map { $0.get("name", as: String.self) }
            }
            #expect(names == ["Lisbon"])
        }
    }
}
