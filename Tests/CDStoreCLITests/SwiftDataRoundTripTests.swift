import CDStoreTestSupport
import Foundation
import Testing

/// `model generate --language swiftdata` read back as a model by the SwiftData source reader: wherever the
/// generator reports no loss, the `@Model` classes give the original model's version hashes exactly.
@Suite("SwiftData code read back")
struct SwiftDataRoundTripTests {
    static let models = ["Company.json", "People.json", "AppSeed.json", "Library.xcdatamodeld", "Staff.xcdatamodeld",
                         "Organization.xcdatamodeld"]

    @Test(arguments: models)
    func generatedClassesHaveTheModelsHashes(_ name: String) throws {
        let model = Corpus.schemas.appendingPathComponent(name).path
        let folder = try temporaryDirectory().appendingPathComponent("Models")
        let generated = try CLIRunner.run(["model", "generate", "--language", "swiftdata", "--model", model, "-o", folder.path])
        #expect(generated.status == 0)
        let original = try CLIRunner.run(["model", "hashes", model])
        let readBack = try CLIRunner.run(["model", "hashes", folder.path])
        #expect(original.status == 0 && readBack.status == 0, "\(readBack.stderr)")
        let lost = generated.stderr.split(separator: "\n").filter { $0.hasPrefix("lost: ") }
        if lost.isEmpty {
            #expect(readBack.stdout == original.stdout)
        } else {
            // What was lost changes hashes (an abstract parent's sub-entities, an ordered relationship's inverse
            // side too); the classes still make the same entities.
            let names = { (text: String) in text.split(separator: "\n").map { $0.split(separator: " ")[0] } }
            #expect(names(readBack.stdout) == names(original.stdout), "lost: \(lost)")
        }
    }
}
