import CDStoreJSON
import Testing

/// Reading in chunks: values split anywhere, inputs far larger than the buffer, NDJSON lines.
@Suite("JSON streaming")
struct JSONStreamingTests {
    static let document = #"""
        [{"id": -9223372036854775808, "name": "Zoë \u00e9\ud83d\ude00 \"q\"", "n": 12345.67, "ok": true},
         null, false, [1e-3, 0, {"nested": ["a\u0000b", -0.5]}], "tail \\ \/"]
        """#

    /// Every chunk size from 1 byte up puts the first chunk boundary at every byte of the document.
    @Test func valuesMaySplitAtAnyByte() throws {
        let bytes = Array(Self.document.utf8)
        let expected = try JSONReader.parse(Self.document)
        for chunkSize in 1...bytes.count + 1 {
            var reader = JSONReader(ByteStream(bytes: bytes, chunkSize: chunkSize))
            #expect(try reader.readValue() == expected, "chunk size \(chunkSize)")
            try reader.expectEnd()
        }
    }

    @Test func ndjsonLinesMaySplitAtAnyByte() throws {
        let text = "{\"a\": 1}\r\n\r\n  \n[\"x\", 2.5]\n\"last line without a newline\""
        let bytes = Array(text.utf8)
        for chunkSize in 1...bytes.count + 1 {
            var reader = JSONReader(ByteStream(bytes: bytes, chunkSize: chunkSize))
            var lines: [(JSONValue, Int)] = []
            while case (let value, let line)? = try reader.readLineValue() { lines.append((value, line)) }
            #expect(lines.map(\.1) == [1, 4, 5], "chunk size \(chunkSize)")
            #expect(
                lines.map(\.0) == [
                    .object([("a", .integer(1))]), .array([.string("x"), .double(2.5)]),
                    .string("last line without a newline"),
                ], "chunk size \(chunkSize)")
        }
    }

    /// 5 MB through a 4 KiB buffer: every record comes out, and the buffer never grows.
    @Test func largeInputStreamsThroughASmallBuffer() throws {
        var text = ""
        var count = 0
        while text.utf8.count < 5_000_000 {
            text +=
                #"{"id": \#(count), "name": "Alice\#(count)", "salary": 12345.67, "joined": "2010-01-01T00:00:00.000Z"}"#
            text += count % 7 == 0 ? "\r\n" : "\n"
            count += 1
        }
        let stream = ByteStream(text, chunkSize: 4096)
        var reader = JSONReader(stream)
        var seen = 0
        while case (let value, let line)? = try reader.readLineValue() {
            guard case .object(let fields) = value, fields.count == 4, fields[0].1 == .integer(Int64(seen)),
                fields[1].1 == .string("Alice\(seen)"), line == seen + 1
            else {
                Issue.record("record \(seen) wrong: \(value) at line \(line)")
                return
            }
            seen += 1
        }
        #expect(seen == count)
        #expect(stream.highWaterMark == 4096)
        #expect(stream.consumed == Int64(text.utf8.count))
    }

    /// A value longer than the buffer grows it (by doubling, so it is scanned a few times, not once per chunk).
    @Test func valueLargerThanTheBufferGrowsIt() throws {
        let long = String(repeating: "x", count: 100_000)
        let stream = ByteStream("[\"\(long)\"]", chunkSize: 1024)
        var reader = JSONReader(stream)
        #expect(try reader.readValue() == .array([.string(long)]))
        #expect(stream.highWaterMark == 131_072)
    }

    @Test func ndjsonErrorsNameTheLineAndGoOn() throws {
        var reader = JSONReader(ByteStream("{\"a\":1}\n{\"a\" 2}\r\n{\"a\":3}\n"))
        #expect(try reader.readLineValue()?.line == 1)
        #expect(throws: JSONSyntaxError(message: "expected ':' after key \"a\"", line: 2, column: 6)) {
            try reader.readLineValue()
        }
        #expect(try reader.readLineValue()?.value == .object([("a", .integer(3))]))
        #expect(try reader.readLineValue() == nil)
    }
}

/// One value larger than the limit is an error, not a buffer that grows without end.
@Suite("Value size limit")
struct ValueSizeLimitTests {
    @Test func aValueLargerThanTheLimitIsRefusedWithItsOffset() throws {
        let big = "[{\"a\": 1}, {\"s\": \"" + String(repeating: "x", count: 300_000) + "\"}]"
        let stream = ByteStream(big, chunkSize: 4096)
        stream.maximumValueSize = 64 * 1024
        var reader = JSONReader(stream)
        let error = #expect(throws: ByteStream.ReadError.self) { _ = try reader.readValue() }
        #expect(error?.description == "memory: a single value (record or line) from byte 0 on is larger than 64 KiB, the most cdstore reads in one piece")
        #expect(stream.highWaterMark <= 2 * 64 * 1024 + 4096)
        do {
            let again = ByteStream(big, chunkSize: 4096)
            again.maximumValueSize = 64 * 1024
            var second = JSONReader(again)
            _ = try second.readValue()
        } catch let error as ByteStream.ReadError {
            #expect(error.description == "memory: a single value (record or line) from byte 0 on is larger than 64 KiB, the most cdstore reads in one piece")
        }
    }

    @Test func theDefaultLimitIs64MiB() {
        #expect(ByteStream("").maximumValueSize == 64 << 20)
    }
}
