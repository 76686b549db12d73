import CDStore
import CDStoreSwiftData
import CDStoreTestSupport
import Foundation
import Testing

/// `import CDStore` alone has no Swift source reader: a SwiftData path is ``CDStoreError/Code/swiftDataUnavailable``
/// (the code a program keys on to fall back to one that has it), naming the path, and nothing is written; with
/// `SwiftDataSources.install()` the same calls work.
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
        #expect(error?.description == path + ": these are SwiftData sources, and this program was built without the "
                + "Swift source reader (swift-syntax): link CDStoreSwiftData and call SwiftDataSources.install() "
                + "before loading them")
    }

    @Test func withoutTheReaderCreatingAStoreFailsBeforeWritingAnything() throws {
        let (folder, file, store) = try sources()
        for path in [file.path, folder.path] {
            let error = withoutSwiftSourceReader {
                #expect(throws: CDStoreError.self) { try CDStore(path: store, model: .path(path), options: [.create]) }
            }
            checkUnavailable(error, path: path)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
                    == ["Models"])
        }
    }

    @Test func withoutTheReaderAnExistingStoreIsLeftAsItWas() throws {
        let (folder, _, store) = try sources()
        _ = try CDStore(path: store, model: .path(Corpus.schemas.appendingPathComponent("People.json").path), options: [.create])
        let before = storeBytes(store)
        let error = withoutSwiftSourceReader {
            #expect(throws: CDStoreError.self) { try CDStore(path: store, model: .path(folder.path), options: [.migrate]) }
        }
        checkUnavailable(error, path: folder.path)
        #expect(storeBytes(store) == before)
    }

    @Test func withTheReaderTheSamePathsOpen() throws {
        SwiftDataSources.install()
        let (folder, file, store) = try sources()
        for (index, path) in [file.path, folder.path].enumerated() {
            let opened = try CDStore(path: store + "\(index)", model: .path(path), options: [.create])
            let names = try opened.write { ctx in
                try ctx.insert("Trip", ["name": "Lisbon"])
                return try ctx.fetch("Trip").map { $0.get("name", as: String.self) }
            }
            #expect(names == ["Lisbon"])
        }
    }
}
