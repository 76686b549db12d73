import CDStoreFuzzing
import CDStoreTestSupport
import Foundation
import Testing

/// Every input saved under `Fuzz/Corpus`, run through the entry point its libFuzzer target calls, in the ordinary
/// test build: an input that crashes, traps or hangs a parser again fails `make test`, which builds no sanitizer.
/// `make fuzz-ci` (in `make release-check`) replays the same files under AddressSanitizer and goes on from them.
@Suite("Fuzz corpus replay")
struct FuzzCorpusReplayTests {
    static let targets: [String: @Sendable ([UInt8]) -> Void] = [
        "predicate": FuzzTargets.predicate, "pattern": FuzzTargets.pattern, "xml-model": FuzzTargets.xmlModel,
        "xcmapping": FuzzTargets.xcmapping, "cdm": FuzzTargets.cdm, "json-model": FuzzTargets.jsonModel,
        "compiled-model": FuzzTargets.compiledModel, "swift-model": FuzzTargets.swiftModel, "plist": FuzzTargets.plist,
        "ndjson": FuzzTargets.ndjson, "json-records": FuzzTargets.jsonRecords, "csv": FuzzTargets.csv,
    ]

    static let corpus = Corpus.packageRoot.appendingPathComponent("Fuzz/Corpus")

    /// The corpus has a folder for each target and a target for each folder, so neither can be added alone.
    @Test func everyCorpusFolderHasATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(Self.targets.keys))
    }

    @Test(arguments: targets.keys.sorted())
    func everySavedInputRunsToTheEnd(target: String) throws {
        let run = try #require(Self.targets[target])
        let folder = Self.corpus.appendingPathComponent(target)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(files.count >= 10, "Fuzz/Corpus/\(target) holds \(files.count) inputs")
        for file in files {
            run(Array(try Data(contentsOf: file)))
        }
    }
}
