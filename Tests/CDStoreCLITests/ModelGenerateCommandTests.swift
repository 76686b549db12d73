import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore model generate`: files written, listed with --dry-run, kept unless --force, losses on stderr.
@Suite("model generate")
struct ModelGenerateCommandTests {
    static let library = Corpus.schemas.appendingPathComponent("Library.xcdatamodeld").path

    @Test func dryRunListsTheFilesAndWritesNothing() throws {
        let folder = try temporaryDirectory().appendingPathComponent("Generated")
        let result = try CLIRunner.run(["model", "generate", "--language", "objc", "--model", Self.library, "-o", folder.path, "--dry-run"])
        #expect(result.status == 0 && result.stderr == "")
        let names = result.stdout.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent }
        #expect(names.count == 12)
        #expect(Array(names.prefix(4)) == ["Author+CoreDataClass.h", "Author+CoreDataClass.m", "Author+CoreDataProperties.h",
                                           "Author+CoreDataProperties.m"])
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func existingFilesAreReplacedOnlyWithForce() throws {
        let folder = try temporaryDirectory()
        let first = try CLIRunner.run(["model", "generate", "--language", "swift", Self.library, "-o", folder.path])
        #expect(first.status == 0 && first.stderr == "")
        #expect(first.stdout == "wrote 6 files to \(folder.path)\n")
        let properties = folder.appendingPathComponent("Book+CoreDataProperties.swift")
        try Data("edited\n".utf8).write(to: properties)

        let refused = try CLIRunner.run(["model", "generate", "--language", "swift", Self.library, "-o", folder.path])
        #expect(refused.status == 1 && refused.stdout == "")
        #expect(refused.stderr.hasPrefix("error: \(folder.path): files exist: Author+CoreDataClass.swift, "))
        #expect(refused.stderr.hasSuffix("; --force replaces them (nothing was written)\n"))
        #expect(try String(contentsOf: properties, encoding: .utf8) == "edited\n")

        let listed = try CLIRunner.run(["model", "generate", "--language", "swift", Self.library, "-o", folder.path, "--dry-run"])
        #expect(listed.stdout.contains("Book+CoreDataProperties.swift (exists: --force replaces it)\n"))

        let forced = try CLIRunner.run(["model", "generate", "--language", "swift", Self.library, "-o", folder.path, "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOf: properties, encoding: .utf8).contains("extension Book {"))
    }

    /// What SwiftData cannot express goes to stderr, one `lost:` line each; the files are still written.
    @Test func swiftDataLossesOnStandardError() throws {
        let folder = try temporaryDirectory()
        let result = try CLIRunner.run(["model", "generate", "--language", "swiftdata", "--model", Fixtures.model.path,
                                        "-o", folder.path])
        #expect(result.status == 0)
        let lost = result.stderr.split(separator: "\n").filter { $0.hasPrefix("lost: ") }
        #expect(lost.count == result.stderr.split(separator: "\n").count && !lost.isEmpty)
        #expect(lost.contains("lost: entity 'Shape': abstract; SwiftData classes are concrete (the version hash changes)"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Shape.swift").path))
    }

    @Test func headerNamesTheModelAsGiven() throws {
        let folder = try temporaryDirectory()
        let result = try CLIRunner.run(["model", "generate", "--language", "codable", "--model", Self.library, "-o", folder.path,
                                        "--namespace", "Library"])
        #expect(result.status == 0)
        let text = try String(contentsOf: folder.appendingPathComponent("Library+Book.swift"), encoding: .utf8)
        #expect(text.contains("//  from \(Self.library) (version \"Library\")\n//  Model version hash: "))
        #expect(text.contains("extension Library {\n    /// An object of the entity Book"))
    }

    @Test func usageErrors() throws {
        let noOutput = try CLIRunner.run(["model", "generate", "--language", "swift", Self.library])
        #expect(noOutput.status == 2 && noOutput.stderr.contains("Missing expected argument '--output <dir>'"))
        let badLanguage = try CLIRunner.run(["model", "generate", "--language", "kotlin", Self.library, "-o", "x"])
        #expect(badLanguage.status == 2)
        let namespace = try CLIRunner.run(["model", "generate", "--language", "swift", Self.library, "-o", "x", "--namespace", "N"])
        #expect(namespace.status == 2 && namespace.stderr.contains("--namespace is for --language codable"))
    }
}

extension ModelGenerateCommandTests {
    @Test func help() throws {
        let result = try CLIRunner.run(["model", "generate", "--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        try assertSnapshot(result.stdout, named: "help/cdstore-model-generate.help.txt")
    }
}
