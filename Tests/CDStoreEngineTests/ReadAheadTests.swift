import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A file is read on a second thread ahead of the insert; records, errors and the end of the input must
/// reach the insert in the order the source gave them, and a stopped insert must stop the reader.
@Suite("Read-ahead of insert input")
struct ReadAheadTests {
    struct Failure: SkippableRecordError {
        var isSkippable: Bool
        var line: Int? { nil }
        var message: String
        var description: String { message }
    }

    /// Records `name` = 1…count; record numbers in `skippable` throw a skippable error, `fatal` a final one.
    struct NumberedSource: RecordSource {
        final class Reads: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func add() { lock.lock(); value += 1; lock.unlock() }
            var count: Int { lock.lock(); defer { lock.unlock() }; return value }
        }
        let count: Int
        var skippable: Set<Int> = []
        var fatal: Int? = nil
        let reads = Reads()
        private(set) var number = 0

        init(count: Int, skippable: Set<Int> = [], fatal: Int? = nil) {
            self.count = count
            self.skippable = skippable
            self.fatal = fatal
        }

        mutating func next() throws -> InputRecord? {
            guard number < count else { return nil }
            number += 1
            reads.add()
            if skippable.contains(number) { throw Failure(isSkippable: true, message: "bad \(number)") }
            if fatal == number { throw Failure(isSkippable: false, message: "fatal \(number)") }
            return InputRecord(fields: [("name", .string("n\(number)"))], line: number)
        }

        /// A large input (read ahead by an insert), of which each record is one byte.
        var position: InputPosition { InputPosition(bytesRead: Int64(number), totalBytes: 1 << 30) }
    }

    /// Everything the consumer sees: `n5` for a record, `!bad 7` for an error, until the end.
    static func drain(_ source: NumberedSource, limit: Int = .max) -> (seen: [String], source: NumberedSource) {
        let reader = ReadAhead(source)
        var ahead = ReadAheadRecordSource(reader, position: source.position)
        var seen: [String] = []
        while seen.count < limit {
            do {
                guard let record = try ahead.next() else { break }
                if case .string(let name) = record.fields[0].1 { seen.append(name) }
            } catch {
                seen.append("!\(error)")
                if (error as? Failure)?.isSkippable == false { break }
            }
        }
        return (seen, reader.finish() as! NumberedSource)
    }

    @Test func recordsAndErrorsInInputOrder() {
        let count = ReadAhead.batchSize * 3 + 17
        let (seen, source) = Self.drain(NumberedSource(count: count, skippable: [1, 300, count]))
        let expected = (1...count).map { [1, 300, count].contains($0) ? "!bad \($0)" : "n\($0)" }
        #expect(seen == expected)
        #expect(source.number == count)
    }

    @Test func aFinalErrorEndsReading() {
        let (seen, source) = Self.drain(NumberedSource(count: 5000, fatal: 700))
        #expect(seen.count == 700)
        #expect(seen.last == "!fatal 700")
        #expect(source.number == 700, "the reader stops at the error that ends the input")
    }

    @Test func stoppingTheInsertStopsTheReader() {
        let total = 1_000_000
        let (seen, source) = Self.drain(NumberedSource(count: total), limit: 10)
        #expect(seen == (1...10).map { "n\($0)" })
        // At most the batches it may hold, the one it was filling and the one being consumed.
        let bound = ReadAhead.batchSize * (ReadAhead.capacity + 2)
        #expect(source.reads.count <= bound)
        #expect(source.number < total)
    }

    /// Once the input is read, the reader stays to free the batches the consumer hands back, until it finishes: a
    /// consumer slower than the reader still gets every record, and finishing ends the reader's thread.
    @Test func aReaderDoneReadingFreesBatchesUntilFinished() throws {
        let count = ReadAhead.batchSize * (ReadAhead.capacity - 1) + 5
        let source = NumberedSource(count: count)
        let reader = ReadAhead(source)
        // Every batch is queued (they fit in its capacity), so the reader is done before the first one is taken.
        while source.reads.count < count { Thread.sleep(forTimeInterval: 0.001) }
        var ahead = ReadAheadRecordSource(reader, position: source.position)
        var names: [String] = []
        while let record = try ahead.next() {
            if case .string(let name) = record.fields[0].1 { names.append(name) }
        }
        #expect(names == (1...count).map { "n\($0)" })
        let finished = reader.finish() as! NumberedSource
        #expect(finished.number == count)
    }

    @Test func insertWithSkippedRecordsReadAhead() throws {
        let model = try Org.jsonModel(#"[{"name": "Person", "attributes": [{"name": "name", "type": "String", "minValue": "2"}]}]"#)
        let store = try Org.store(model, name: "ReadAhead.sqlite")
        var source = NumberedSource(count: 2000, skippable: [5, 1500])
        let skipped = NumberedSource.Reads()
        let summary = try store.insert(from: &source, into: "Person",
                                       options: InsertSettings(skipInvalid: true, onSkip: { _ in skipped.add() }))
        #expect(summary == InsertSummary(inserted: 1998, skipped: 2))
        #expect(skipped.count == 2)
        #expect(source.number == 2000, "the caller's source is left where the reader left it")
        #expect(try store.rows("SELECT COUNT(*), MIN(ZNAME), MAX(Z_PK) FROM ZPERSON") == ["1998|n1|1998"])
    }

    /// `cdstore insert` of files large enough to be read ahead, with a malformed line, a record the model refuses and
    /// a uniqueness collision: the same output, exit status and store contents as reading on one thread.
    @Test(arguments: [[String](), ["--skip-invalid"]])
    func sameAsReadingOnOneThread(_ extra: [String]) throws {
        let folder = try temporaryDirectory()
        var lines: [String] = []
        var csv = ["employeeNumber,firstName,lastName,email,hiredAt"]
        for n in 1...3000 {
            let email = n == 2100 ? "not-an-email" : "e\(n)@bench.example"
            let number = n == 2500 ? 7 : n  // collides with employee 7
            lines.append(n == 1200 ? "{\"employeeNumber\": 1200, \"firstName\": " :
                #"{"employeeNumber": \#(number), "firstName": "F\#(n)", "lastName": "L", "email": "\#(email)", "hiredAt": "2020-01-01"}"#)
            csv.append(n == 1200 ? "1200,F" : "\(number),F\(n),L,\(email),2020-01-01")
        }
        let ndjson = folder.appendingPathComponent("e.ndjson")
        let csvFile = folder.appendingPathComponent("e.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: ndjson, atomically: true, encoding: .utf8)
        try (csv.joined(separator: "\n") + "\n").write(to: csvFile, atomically: true, encoding: .utf8)
        let company = Corpus.schemas.appendingPathComponent("Company.json").path
        for (file, flag) in [(ndjson, "--nl"), (csvFile, "--csv")] {
            let runs = try SwitchedRuns([[:], ["CDSTORE_NO_READ_AHEAD": "1"]],
                                        arguments: ["insert", "Employee", "--file", file.path, flag, "--model", company, "--quiet"] + extra,
                                        folder: folder, name: flag,
                                        queries: ["SELECT ZEMPLOYEENUMBER || ' ' || ZFIRSTNAME FROM ZEMPLOYEE ORDER BY Z_PK"])
            let results = runs.results
            #expect(results[0].status == 1, "\(flag) \(extra): \(results[0].stderr)")
            runs.expectSameOutcome("\(flag) \(extra)")
            #expect(results[0].stderr.contains(extra.isEmpty ? "record 1200" : "skipped 3 invalid records"),
                    "\(flag): \(results[0].stderr)")
        }
    }
}
