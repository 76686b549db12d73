@testable import CDStoreModel
import Foundation
import Testing

/// Property lists and archived property-list values that refer back to themselves or nest deeper than the
/// readers follow: errors naming the object, never a stack overflow.
@Suite("Property-list cycles and depth")
struct PropertyListDepthTests {
    /// `bplist00` bytes of `objects` (already encoded, references 2 bytes wide), object 0 at the top.
    static func bplist(_ objects: [[UInt8]]) -> [UInt8] {
        func be(_ n: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: n >> (8 * (size - 1 - $0))) } }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += be(offset, 4) }
        return bytes + [0, 0, 0, 0, 0, 0, 4, 2] + be(objects.count, 8) + be(0, 8) + be(table, 8)
    }

    /// An array of one element: the object `ref`.
    static func array(_ ref: Int) -> [UInt8] { [0xA1, UInt8(ref >> 8), UInt8(ref & 0xFF)] }

    @Test func aBinaryArrayContainingItself() {
        let error = #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.read(Self.bplist([Self.array(0)])) }
        #expect(error?.description == "binary property list: object #0 contains itself")
        let twoStep = #expect(throws: PropertyListReader.Failure.self) {
            try PropertyListReader.read(Self.bplist([Self.array(1), Self.array(0)]))
        }
        #expect(twoStep?.description == "binary property list: object #0 contains itself (through object #1)")
    }

    /// 600 nested arrays, no cycle: the 513th is refused (this recursed as deep as the file said before the
    /// limit of 512; without one, a few megabytes of arrays would overflow the stack).
    @Test func binaryArraysNestedDeeperThanTheLimit() throws {
        let deep = (0..<600).map { $0 + 1 < 600 ? Self.array($0 + 1) : [0xA0] }
        let error = #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.read(Self.bplist(deep)) }
        #expect(error?.description == "binary property list: object #512 is nested more than 512 objects deep")
        let ok = (0..<512).map { $0 + 1 < 512 ? Self.array($0 + 1) : [0xA0] }
        var value = try PropertyListReader.read(Self.bplist(ok))
        var depth = 0
        while case .array(let items) = value, let first = items.first { value = first; depth += 1 }
        #expect(depth == 511)
    }

    /// Objects shared many times over are read once each (the reader caches them), so sharing is not a cycle.
    @Test func aSharedBinaryObjectIsNotACycle() throws {
        let shared: [[UInt8]] = [[0xA2, 0, 1, 0, 1], [0xA0]]
        #expect(try PropertyListReader.read(Self.bplist(shared)) == .array([.array([]), .array([])]))
    }

    /// Old-style (OpenStep) property lists, which only Foundation's parser read, are refused however deep they
    /// nest (no property list goes through Foundation's text parsers).
    @Test func openStepPlistsAreRefusedNotParsed() throws {
        let text = String(repeating: "(", count: 513) + String(repeating: ")", count: 513)
        let error = #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.read(Data(text.utf8)) }
        #expect(error?.description == "not a property list (cdstore reads binary bplist00 and XML property lists)")
    }

    /// A keyed archive of NSArrays (a Transformable value), `count` deep, the innermost empty.
    static func nestedArchive(_ count: Int, cycle: Bool = false) throws -> KeyedArchive {
        var objects: [PropertyListValue] = [.string("$null")]
        let classRecord = count + 1
        for n in 1...count {
            let inner: [PropertyListValue] = n < count ? [.uid(n + 1)] : cycle ? [.uid(1)] : []
            objects.append(.dictionary(["NS.objects": .array(inner), "$class": .uid(classRecord)]))
        }
        objects.append(.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])]))
        return try KeyedArchive(plist: .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array(objects),
        ]))
    }

    @Test func archivedArraysInACycle() throws {
        let error = #expect(throws: KeyedArchive.UnsupportedContent.self) { try Self.nestedArchive(3, cycle: true).propertyListRoot() }
        #expect(error?.description == "NSArray #1 contains itself (through NSArray #2, NSArray #3)")
    }

    /// As deep as JSON input can be (512), a Transformable value reads back; deeper is refused.
    @Test func archivedArraysNestedDeeperThanTheLimit() throws {
        let error = #expect(throws: KeyedArchive.UnsupportedContent.self) { try Self.nestedArchive(600).propertyListRoot() }
        #expect(error?.description == "NSArray #513 is nested more than 512 objects deep")
        var value = try Self.nestedArchive(512).propertyListRoot()
        var depth = 1
        while case .array(let items) = value, let first = items.first { value = first; depth += 1 }
        #expect(depth == 512)
    }

    /// The guard itself: a cycle names the objects between, at most four.
    @Test func objectPathNamesTheCycle() throws {
        var path = ObjectPath(depthLimit: 10)
        for n in 1...6 { try path.enter(n) { "X #\($0)" } }
        let error = #expect(throws: ObjectPathError.self) { try path.enter(1) { "X #\($0)" } }
        #expect(error?.description == "X #1 contains itself (through X #2, X #3, X #4, X #5, …)")
        #expect(error?.kind == .cycle)
        #expect(error?.through == ["X #2", "X #3", "X #4", "X #5", "X #6"])
        path.leave()
        try path.enter(6) { "X #\($0)" }  // left, so no longer on the path
        #expect(path.depth == 6)
        var counted = ObjectPath(visitLimit: 2)
        try counted.enter(1) { "#\($0)" }
        counted.leave()
        try counted.enter(1) { "#\($0)" }
        counted.leave()
        let tooMany = #expect(throws: ObjectPathError.self) { try counted.enter(1) { "#\($0)" } }
        #expect(tooMany?.kind == .tooMany)
    }
}
