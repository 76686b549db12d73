import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// The binary property-list writer: output that both readers (ours and Foundation's) read back to the same
/// value, and bytes that depend on nothing but the value.
@Suite struct PropertyListWriterTests {
    /// A value using every type the writer knows, with counts on both sides of the 15-item marker limit.
    static let sample: PropertyListValue = .dictionary([
        "string": .string("hello"),
        "unicode": .string("Zoë 🎨 — 日本"),
        "long string with more than fifteen characters": .string(String(repeating: "x", count: 300)),
        "empty": .string(""),
        "ints": .array([.int(0), .int(1), .int(255), .int(256), .int(65_535), .int(65_536), .int(4_294_967_295),
                        .int(4_294_967_296), .int(-1), .int(.min), .int(.max)]),
        "reals": .array([.real(0), .real(-0.0), .real(1.5), .real(-2.25e-300), .real(.infinity), .real(1e300)]),
        "bools": .array([.bool(true), .bool(false)]),
        "date": .date(737_057_646.84),
        "data": .data(Array(0..<200).map { UInt8($0) }),
        "empty data": .data([]),
        "nested": .dictionary(["a": .array([]), "b": .dictionary([:]), "c": .array((0..<20).map { .int(Int64($0)) })]),
        "same": .array([.string("hello"), .string("hello"), .int(1), .bool(true), .real(1)]),
    ])

    @Test func roundTripsThroughOwnReader() throws {
        let bytes = try BinaryPropertyListWriter.write(Self.sample)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try PropertyListReader.read(bytes) == Self.sample)
    }

    /// A big last object (a model kept in store metadata) ends past 64 KiB: Foundation reads the offset size
    /// against the offset table's position, so the metadata of a WooCommerce store could not be read back.
    @Test func foundationReadsAPlistWhoseOffsetTableIsPast64KiB() throws {
        let value: PropertyListValue = .dictionary(["a": .int(1), "z": .string(String(repeating: "m", count: 70_000))])
        let data = try BinaryPropertyListWriter.data(value)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        #expect(try PropertyListValue(foundationObject: object) == value)
        #expect(try PropertyListReader.read(Array(data)) == value)
    }

    @Test func roundTripsThroughFoundation() throws {
        let data = try BinaryPropertyListWriter.data(Self.sample)
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        #expect(format == .binary)
        #expect(try PropertyListValue(foundationObject: object) == Self.sample)
        // And spot checks on Foundation's own objects, independent of our conversion.
        let dict = try #require(object as? [String: Any])
        #expect(dict["unicode"] as? String == "Zoë 🎨 — 日本")
        #expect((dict["ints"] as? [Any])?.compactMap { ($0 as? NSNumber)?.int64Value }.last == Int64.max)
        #expect((dict["ints"] as? [Any])?.compactMap { ($0 as? NSNumber)?.int64Value }[9] == Int64.min)
        #expect((dict["date"] as? Date)?.timeIntervalSinceReferenceDate == 737_057_646.84)
        #expect((dict["data"] as? Data)?.count == 200)
        #expect(dict["bools"] as? [Bool] == [true, false])
    }

    @Test func foundationWrittenPlistsReadTheSame() throws {
        let foundation = try PropertyListSerialization.data(fromPropertyList: Self.sample.foundationObject,
                                                            format: .binary, options: 0)
        #expect(try PropertyListReader.read(foundation) == Self.sample)
        // XML keeps dates to the second only.
        guard case .dictionary(var whole) = Self.sample else {
            Issue.record("the sample is a dictionary")
            return
        }
        whole["date"] = .date(737_057_646)
        let xml = try PropertyListSerialization.data(fromPropertyList: PropertyListValue.dictionary(whole).foundationObject,
                                                     format: .xml, options: 0)
        #expect(try PropertyListReader.read(xml) == .dictionary(whole))
    }

    @Test func insertionOrderDoesNotMatter() throws {
        let keys = (0..<200).map { "key\($0 * 7919 % 200)" }
        var forward: [String: PropertyListValue] = [:]
        for (i, key) in keys.enumerated() { forward[key] = .int(Int64(i % 13)) }
        var backward: [String: PropertyListValue] = [:]
        for (i, key) in keys.enumerated().reversed() { backward[key] = .int(Int64(i % 13)) }
        // Force different hash-table histories: grow one from a reserved capacity.
        var reserved = [String: PropertyListValue](minimumCapacity: 4096)
        for (key, value) in backward.sorted(by: { $0.key > $1.key }) { reserved[key] = value }
        let a = try BinaryPropertyListWriter.write(.dictionary(forward))
        #expect(a == (try BinaryPropertyListWriter.write(.dictionary(backward))))
        #expect(a == (try BinaryPropertyListWriter.write(.dictionary(reserved))))
    }

    /// The exact bytes for a small value, fixed here, so that every process (whatever its hash seed) and every
    /// future version writes the same bytes. Checked with Python's plistlib when recorded.
    @Test func bytesAreFixed() throws {
        let value: PropertyListValue = .dictionary([
            "b": .array([.int(1), .string("é"), .bool(true)]),
            "a": .data([0xCA, 0xFE]),
            "c": .date(0),
            "u": .uid(300),
        ])
        let hex = try BinaryPropertyListWriter.write(value).map { String(format: "%02x", $0) }.joined()
        #expect(hex == Self.fixedHex)
    }

    static let fixedHex = "62706c6973743030d40102030405060a0b516151625163517542cafea307080910016100e9093300000000000000008101"
        + "2c0811131517191c202225262f0000000000000101000000000000000c00000000000000000000000000000032"

    @Test func largeTablesUseWiderReferencesAndOffsets() throws {
        // More than 65 535 objects (4-byte references) and more than 65 535 bytes of objects (4-byte offsets).
        let many: PropertyListValue = .array((0..<70_000).map { .string("s\($0)") })
        let bytes = try BinaryPropertyListWriter.write(many)
        let trailer = bytes.suffix(32)
        #expect(trailer[trailer.startIndex + 6] == 4)  // offset size
        #expect(trailer[trailer.startIndex + 7] == 4)  // reference size
        #expect(try PropertyListReader.read(bytes) == many)
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        #expect((object as? [String])?.count == 70_000)
        #expect((object as? [String])?.last == "s69999")

        let medium: PropertyListValue = .array((0..<300).map { .int(Int64($0) + 1000) })
        let mediumBytes = try BinaryPropertyListWriter.write(medium)
        #expect(mediumBytes[mediumBytes.count - 32 + 7] == 2)
        #expect(try PropertyListReader.read(mediumBytes) == medium)
    }

    @Test func uidsRoundTrip() throws {
        let value: PropertyListValue = .dictionary(["x": .array([.uid(0), .uid(255), .uid(256), .uid(70_000)])])
        #expect(try PropertyListReader.read(try BinaryPropertyListWriter.write(value)) == value)
        let object = try PropertyListSerialization.propertyList(from: try BinaryPropertyListWriter.data(value), format: nil)
        #expect(try PropertyListValue(foundationObject: object) == value)
    }

    @Test func refusesNull() {
        let error = #expect(throws: BinaryPropertyListWriter.Failure.self) {
            try BinaryPropertyListWriter.write(.array([.null]))
        }
        #expect(error?.description == "a property list cannot hold null")
    }

    /// Repeated calls in one process agree (``bytesAreFixed()`` is the check across processes).
    @Test func repeatedCallsAgree() throws {
        let first = try BinaryPropertyListWriter.write(Self.sample)
        for _ in 0..<5 { #expect(try BinaryPropertyListWriter.write(Self.sample) == first) }
    }
}
