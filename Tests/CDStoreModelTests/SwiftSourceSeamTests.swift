import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import Testing

/// The model layer reads SwiftData sources only through the reader a caller passes (`swiftReader:`, nothing is
/// installed for the process): without one a `.swift` path or a sources folder is the one error that says so,
/// naming the path; with one, the same paths load; other models never need it.
@Suite struct SwiftSourceSeamTests {
    static let source = """
        @Model final class Trip { var name: String; var stops: [Stop] = []; init() {} }
        @Model final class Stop { var place: String; var trip: Trip?; init() {} }
        """

    /// A folder `Models` holding `Trip.swift`.
    func sources() throws -> (folder: URL, file: URL) {
        let folder = try temporaryDirectory().appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Trip.swift")
        try Data(Self.source.utf8).write(to: file)
        return (folder, file)
    }

    func needsReader(_ path: String) -> ModelError {
        ModelError(.swiftSourcesNeedReader,
                   "these are SwiftData sources, and this program reads models without the Swift source reader "
                   + "(swift-syntax): import CDStoreSwiftData and load them with its reader",
                   file: path)
    }

    @Test func withoutAReaderASwiftFileIsRefusedNamingIt() throws {
        let file = try sources().file
        let error = #expect(throws: ModelError.self) { try ModelLoader.load(file.path) }
        #expect(error == needsReader(file.path))
        #expect(error?.description == file.path + ": " + needsReader(file.path).message)
    }

    @Test func withoutAReaderASourcesFolderIsRefusedNamingIt() throws {
        let folder = try sources().folder
        let errors = [
            #expect(throws: ModelError.self) { try ModelLoader.load(folder.path) },
            #expect(throws: ModelError.self) { try ModelLoader.loadVersions(folder.path, schema: "Main") },
            #expect(throws: ModelError.self) { try ModelLoader.load(folder.path, version: "1.0.0") },
            #expect(throws: ModelError.self) { try ModelLoader.load(folder.path, swiftReader: nil) },
        ]
        #expect(errors == Array(repeating: needsReader(folder.path), count: 4))
    }

    /// What is not there is still "not found", and what is not Swift needs no reader.
    @Test func withoutAReaderOtherModelsAndMissingPathsAreAsBefore() throws {
        let missing = try temporaryDirectory().appendingPathComponent("Gone.swift").path
        let error = #expect(throws: ModelError.self) { try ModelLoader.load(missing) }
        let company = try ModelLoader.load(Corpus.schemas.appendingPathComponent("Company.json").path)
        #expect(error?.code == .fileNotFound)
        #expect(error?.file == missing)
        #expect(company.model.entities.map(\.name).sorted() == ["Badge", "Company", "Department", "Employee", "Manager"])
    }

    @Test func withTheReaderTheSamePathsLoad() throws {
        let (folder, file) = try sources()
        for path in [folder.path, file.path] {
            let loaded = try ModelLoader.load(path, swiftReader: SwiftModelReader.reader)
            #expect(loaded.format == .swiftSource)
            #expect(loaded.model.entities.map(\.name).sorted() == ["Stop", "Trip"])
            // The model keeps the reader it was read with (a migration reads the other versions with it).
            #expect(loaded.swiftReader != nil)
            #expect(try ModelLoader.loadVersions(path, swiftReader: SwiftModelReader.reader).versions
                .map(\.model.versionIdentifiers) == [["1.0.0"]])
            let direct = try SwiftModelReader.load(URL(fileURLWithPath: path))
            #expect(direct.model.entities.map(\.name).sorted() == ["Stop", "Trip"])
            // Passing the reader once does not install it: the next plain load is refused again.
            #expect(throws: ModelError.self) { try ModelLoader.load(path) }
        }
    }
}
