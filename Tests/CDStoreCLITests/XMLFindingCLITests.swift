import CDStoreTestSupport
import Foundation
import Testing

/// The fuzz findings that killed `cdstore model show` with signal 11 inside Foundation's `XMLParser`.
@Suite("XML fuzz findings through the CLI")
struct XMLFindingCLITests {
    /// `model show` on the finding as a model version's `contents`.
    func show(_ finding: String) throws -> (result: ProcessResult, version: String) {
        let box = try Sandbox()
        let bytes = try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Fuzz/Corpus/xml-model/\(finding)"))
        let version = box.path("Finding.xcdatamodel")
        try FileManager.default.createDirectory(atPath: version, withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: version + "/contents"))
        return (try CLIRunner.run(["model", "show", version]), version)
    }

    @Test func theFuzzedFindingIsBadInputWithItsPlace() throws {
        let (result, version) = try show("finding-fuzzed-processing-instruction.xml")
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(version)/contents:1:6: not well-formed XML (text before the root element)\n")
        #expect(result.stdout == "")
    }

    /// `<?xml version="1.0"?><?pi?><model/>` is well-formed: a model without entities, shown like any other.
    @Test func theReducedFindingIsAnEmptyModel() throws {
        let (result, _) = try show("finding-empty-processing-instruction.xml")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
    }
}
