import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreCLI
import CDStoreIO
import CDStoreEngine
import Foundation
import Testing

/// The streaming record readers: inputs far larger than their buffer, rows split at every byte, CRLF, and which
/// errors spoil one record (skippable) and which end reading.
@Suite("Streaming record readers")
struct StreamingReaderTests {
    /// Reads every record of `source`; errors are returned in place of records.
    static func drain(_ source: inout any RecordSource) -> [Result<InputRecord, RecordInput.InputError>] {
        var results: [Result<InputRecord, RecordInput.InputError>] = []
        while true {
            do {
                guard let record = try source.next() else { return results }
                results.append(.success(record))
            } catch let error as RecordInput.InputError {
                results.append(.failure(error))
                if !error.isSkippable { return results }
            } catch {
                Issue.record("unexpected error \(error)")
                return results
            }
        }
    }

    static func person(_ index: Int) -> [(String, InputValue)] {
        [
            ("id", .integer(Int64(index))), ("name", .string("Alice\(index)")), ("salary", .double(12345.67)),
            ("active", .bool(index % 2 == 0)),
        ]
    }

    /// Checks that `records` are `person(0)`, `person(1)`, … and says which one is not.
    static func expectPeople(_ records: [InputRecord], count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(records.count == count, sourceLocation: sourceLocation)
        for (index, record) in records.enumerated() where !(JSONValue.object(record.fields) == .object(person(index))) {
            Issue.record("record \(index) is \(record.fields)", sourceLocation: sourceLocation)
            return
        }
    }

    @Test func ndjsonStreamsFiveMegabytesThroughFourKilobytes() throws {
        var text = ""
        var count = 0
        while text.utf8.count < 5_000_000 {
            text += #"{"id":\#(count),"name":"Alice\#(count)","salary":12345.67,"active":\#(count % 2 == 0)}"#
            text += count % 3 == 0 ? "\r\n" : "\n"
            count += 1
        }
        let stream = ByteStream(text, chunkSize: 4096)
        var source = RecordInput.reader(stream, format: .ndjson)
        let records = try Self.drain(&source).map { try $0.get() }
        Self.expectPeople(records, count: count)
        #expect(records.last?.line == count)
        #expect(stream.highWaterMark == 4096)
        #expect(source.position == InputPosition(bytesRead: Int64(text.utf8.count), totalBytes: Int64(text.utf8.count)))
    }

    @Test func jsonArrayStreamsElementByElement() throws {
        var text = "[\n"
        var count = 0
        while text.utf8.count < 5_000_000 {
            text +=
                (count == 0 ? "" : ",\n") + #"  {"id": \#(count), "name": "Alice\#(count)", "salary": 12345.67, "#
                + #""active": \#(count % 2 == 0)}"#
            count += 1
        }
        text += "\n]\n"
        let stream = ByteStream(text, chunkSize: 4096)
        var source = RecordInput.reader(stream, format: .json)
        let records = try Self.drain(&source).map { try $0.get() }
        Self.expectPeople(records, count: count)
        #expect(records.first?.line == 2)
        #expect(records.last?.line == count + 1)
        #expect(stream.highWaterMark == 4096)
    }

    @Test func csvStreamsWithQuotedLineBreaks() throws {
        var text = "\u{FEFF}id,name,note\r\n"
        var count = 0
        while text.utf8.count < 5_000_000 {
            text += "\(count),Alice\(count),\"line one\nline \"\"two\"\", with a comma\"\r\n"
            count += 1
        }
        let stream = ByteStream(text, chunkSize: 4096)
        var source = RecordInput.reader(stream, format: .csv)
        let records = try Self.drain(&source).map { try $0.get() }
        #expect(records.count == count)
        #expect(records.last?.line == 2 * count)
        #expect(records.allSatisfy { $0.fields[2].1 == .string("line one\nline \"two\", with a comma") })
        #expect(records.enumerated().allSatisfy { $1.fields[0] == ("id", .string(String($0))) })
        #expect(stream.highWaterMark == 4096)
    }

    /// Every chunk size from 1 byte up: rows, quotes and `""` escapes split at every byte.
    @Test func csvRowsMaySplitAtAnyByte() throws {
        let text = "a,b,c\r\n1,\"x,\"\"y\"\"\",\r\n\r\n\"\",\"multi\nline\",3\n4,5,6"
        let expected = try RecordInput.records(from: text, format: .csv)
        #expect(expected.map(\.line) == [2, 4, 6])
        #expect(
            JSONValue.object(expected[0].fields)
                == .object([("a", .string("1")), ("b", .string("x,\"y\"")), ("c", .null)]))
        #expect(
            JSONValue.object(expected[1].fields)
                == .object([
                    ("a", .string("")), ("b", .string("multi\nline")),
                    ("c", .string("3")),
                ]))
        let bytes = Array(text.utf8)
        for chunkSize in 1...bytes.count + 1 {
            var source = RecordInput.reader(ByteStream(bytes: bytes, chunkSize: chunkSize), format: .csv)
            let records = try Self.drain(&source).map { try $0.get() }
            #expect(
                records.map { JSONValue.object($0.fields) } == expected.map { JSONValue.object($0.fields) },
                "chunk size \(chunkSize)")
            #expect(records.map(\.line) == expected.map(\.line), "chunk size \(chunkSize)")
        }
    }

    /// `\r` outside quotes is dropped wherever it is, as the CSV reader always did; inside quotes it is kept.
    @Test(
        arguments: [
            ("a,b\nx\ry,z\n", [("a", "xy"), ("b", "z")]),
            ("a,b\r\n1\r,2\r\n", [("a", "1"), ("b", "2")]),
            ("a,b\r\n\"1\r\",\r2\r\r\n", [("a", "1\r"), ("b", "2")]),
            (" a ,b\n  ,\"\"\"\"\n", [("a", "  "), ("b", "\"")]),
        ] as [(String, [(String, String)])])
    func csvCarriageReturns(text: String, fields: [(String, String)]) throws {
        let records = try RecordInput.records(from: text, format: .csv)
        #expect(records.count == 1)
        #expect(JSONValue.object(records[0].fields) == .object(fields.map { ($0.0, .string($0.1)) }))
    }

    @Test func jsonRecordsMaySplitAtAnyByte() throws {
        let text = "[{\"_entity\": \"Circle\", \"r\": 2},\r\n {\"s\": \"\\u00e9\"}, {}]"
        let bytes = Array(text.utf8)
        for chunkSize in 1...bytes.count + 1 {
            var source = RecordInput.reader(ByteStream(bytes: bytes, chunkSize: chunkSize), format: .json)
            let records = try Self.drain(&source).map { try $0.get() }
            #expect(records.map(\.entityName) == ["Circle", nil, nil], "chunk size \(chunkSize)")
            #expect(records.map(\.line) == [1, 2, 2], "chunk size \(chunkSize)")
            #expect(
                records.map { JSONValue.object($0.fields) } == [
                    .object([("r", .integer(2))]), .object([("s", .string("é"))]),
                    .object([]),
                ])
        }
    }

    @Test func malformedNDJSONLineIsSkippable() throws {
        var source = RecordInput.reader(ByteStream("{\"a\":1}\n{\"a\":\n\n[2]\n{\"a\":3}\n"), format: .ndjson)
        let results = Self.drain(&source)
        #expect(results.count == 4)
        #expect(try results[0].get().line == 1)
        #expect(
            results[1].failureDescription == "record 2 (line 2): malformed JSON at column 6: unexpected end of input")
        #expect(results[2].failureDescription == "record 3 (line 4): expected a JSON object, got an array")
        #expect(try results[3].get().line == 5)
    }

    @Test func csvFieldCountIsSkippableButSyntaxIsNot() throws {
        var source = RecordInput.reader(ByteStream("a,b\n1,2\n1,2,3\n3,4\n5,\"open\n"), format: .csv)
        let results = Self.drain(&source)
        #expect(results.count == 4)
        #expect(results[1].failureDescription == "record 2 (line 3): malformed CSV: 3 fields, but the header has 2")
        #expect(try results[2].get().fields[0].1 == .string("3"))
        #expect(results[3].failureDescription == "line 5: malformed CSV: unterminated quoted field")
        #expect(try source.next() == nil)
    }

    @Test func jsonSyntaxErrorEndsReadingButANonObjectIsSkippable() throws {
        var source = RecordInput.reader(
            ByteStream("[{\"a\": 1}, 7, {\"a\": 2},\n {\"a\" 3}, {\"a\": 4}]"), format: .json)
        let results = Self.drain(&source)
        #expect(results.count == 4)
        #expect(results[1].failureDescription == "record 2 (line 1): expected a JSON object, got 7")
        #expect(results[3].failureDescription == "malformed JSON at line 2, column 7: expected ':' after key \"a\"")
        #expect(try source.next() == nil)
    }

    @Test func invalidUTF8IsReportedWithItsLine() throws {
        let ndjsonBytes = Array("\u{FEFF}{\"a\":\"".utf8) + [0xFF] + Array("\"}\n{\"a\":1}\n".utf8)
        var ndjson = RecordInput.reader(ByteStream(bytes: ndjsonBytes), format: .ndjson)
        let results = Self.drain(&ndjson)
        #expect(
            results.first?.failureDescription
                == "record 1 (line 1): malformed JSON at column 6: invalid UTF-8 in a string")
        #expect(results.count == 2)
        var csv = RecordInput.reader(ByteStream(bytes: Array("a\nok\n".utf8) + [0xC3, 0x28, 10]), format: .csv)
        #expect(Self.drain(&csv).last?.failureDescription == "line 3: malformed CSV: invalid UTF-8 text")
    }

    @Test func singleObjectIsOneRecord() throws {
        let records = try RecordInput.records(from: "\n  {\"a\": 9223372036854775807}\n", format: .json)
        #expect(records.count == 1)
        #expect(records[0].line == 2)
        #expect(records[0].fields[0].1 == .integer(Int64.max))
        #expect(try RecordInput.records(from: "[]", format: .json).isEmpty)
        #expect(try RecordInput.records(from: "", format: .ndjson).isEmpty)
        #expect(try RecordInput.records(from: "", format: .csv).isEmpty)
        let error = #expect(throws: RecordInput.InputError.self) { try RecordInput.records(from: "{} {}", format: .json) }
        #expect(error?.description == "malformed JSON at line 1, column 4: unexpected text after the JSON value")
    }

    @Test func streamReadsFilesAndKnowsTheirSize() throws {
        let box = try Sandbox()
        let path = try box.write("people.ndjson", "{\"id\":1}\n{\"id\":2}\n")
        var source = RecordInput.reader(try ByteStream(path: path, chunkSize: 8), format: .ndjson)
        #expect(source.position == InputPosition(bytesRead: 0, totalBytes: 18))
        #expect(try source.next()?.fields[0].1 == .integer(1))
        #expect(source.position.bytesRead == 9)
        let error = #expect(throws: ByteStream.ReadError.self) { try ByteStream(path: box.path("missing.csv")) }
        #expect(error?.description == "cannot read \(box.path("missing.csv")): No such file or directory")
    }
}

extension Result where Failure == RecordInput.InputError {
    /// The error's text, or nil for a record.
    var failureDescription: String? {
        if case .failure(let error) = self { return error.description }
        return nil
    }
}
