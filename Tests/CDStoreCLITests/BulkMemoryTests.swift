import CDStoreTestSupport
import Foundation
import Testing

/// Bulk loads stream. Peak memory of an insert does not grow with the number of records: the same
/// command on 20k and on 160k records peaks within a few MiB of each other, far under 64 MiB.
@Suite("Bulk loads in bounded memory")
struct BulkMemoryTests {
    static let model = Corpus.packageRoot.appendingPathComponent("Schemas/People.json").path

    /// Peak resident memory (KiB) of `cdstore arguments…`, by `/usr/bin/time`, and the command's result.
    func peakKiB(_ arguments: [String]) throws -> (kib: Int, result: ProcessResult) {
        let report = try temporaryDirectory().appendingPathComponent("time.txt").path
        let result = try ProcessRunner.run("/usr/bin/time", ["-f", "%M", "-o", report, CLIRunner.binary] + arguments)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        return (Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? -1, result)
    }

    func people(_ count: Int, csv: Bool) throws -> String {
        let path = try temporaryDirectory().appendingPathComponent(csv ? "people.csv" : "people.ndjson").path
        var text = csv ? "id,name,age,salary,active,joined\n" : ""
        text.reserveCapacity(count * 110)
        for i in 0..<count {
            let joined = "20\(10 + i % 10)-0\(1 + i % 9)-1\(i % 10)T08:30:00.250Z"
            text += csv ? "\(i),Person \(i),\(18 + i % 70),\(Double(i) * 1.5),\(i % 2),\(joined)\n"
                : #"{"id":\#(i),"name":"Person \#(i)","age":\#(18 + i % 70),"salary":\#(Double(i) * 1.5),"active":\#(i % 2 == 0),"joined":"\#(joined)"}"# + "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [false, true])
    func insertMemoryIsFlatInTheNumberOfRecords(csv: Bool) throws {
        // `make test` installs it (package `time`); without it this test cannot measure, which is a failure.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time is missing: apt-get install time")
        var peaks: [Int] = []
        for count in [20_000, 160_000] {
            let file = try people(count, csv: csv)
            let store = try temporaryDirectory().appendingPathComponent("People.sqlite").path
            let (kib, result) = try peakKiB(["insert", "Person", "--file", file, "--model", Self.model, "--store", store])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "inserted \(count) objects into Person\n")
            peaks.append(kib)
        }
        // Eight times the records, the same memory: what grows with the input is bounded by the reader's chunk.
        #expect(peaks[1] < 64 * 1024, "peak \(peaks[1]) KiB")
        #expect(peaks[1] - peaks[0] < 8 * 1024, "peaks \(peaks) KiB")
    }
}
