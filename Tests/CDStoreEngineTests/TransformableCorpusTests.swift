@testable import CDStoreModel
@testable import CDStoreEngine
import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// Apple-written property lists and keyed archives in the corpus stores.
///
/// None of the corpus stores has a Transformable column (their models and model caches declare no
/// Transformable attribute; `ZCOVER` in the Artsy stores is a to-one foreign key), so no store holds a
/// Transformable blob: the scan below checks every BLOB value anyway and would decode any keyed archive it met.
/// The Apple-written archives we do have are the model caches (`Z_MODELCACHE`), whose NSDictionary/NSArray
/// objects are decoded here, and the metadata plists (`Z_METADATA.Z_PLIST`), which both readers and the writer
/// must agree on.
@Suite struct TransformableCorpusTests {
    static func stores() throws -> [URL] {
        try Corpus.storeFiles()
    }

    static func open(_ store: URL) throws -> DatabaseQueue {
        try DatabaseQueue(path: try Corpus.copyStore(store).path)
    }

    @Test func blobColumnsDecodeOrStayBytes() throws {
        var archives = 0, blobs = 0
        for store in try Self.stores() {
            let rows: [Data] = try Self.open(store).read { db in
                var values: [Data] = []
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                for table in tables where !["Z_METADATA", "Z_MODELCACHE"].contains(table) {
                    for column in try db.columns(in: table) {
                        values += try Data.fetchAll(db, sql: "SELECT \"\(column.name)\" FROM \"\(table)\" WHERE typeof(\"\(column.name)\") = 'blob'")
                    }
                }
                return values
            }
            for bytes in rows {
                blobs += 1
                var attribute = Attribute(name: "value", type: .transformable, isOptional: true)
                attribute.valueTransformerName = nil
                let shown = AttributeCoding.objectValue(bytes.databaseValue, for: attribute)
                guard let decoded = TransformableCoding.decode(bytes) else {
                    #expect(shown == .data(bytes))
                    continue
                }
                archives += 1
                let again = try KeyedArchive(data: Data(try KeyedArchiveWriter.archive(decoded))).propertyListRoot()
                #expect(again == decoded, "\(store.lastPathComponent)")
            }
        }
        // Today: 2 blobs (JSON text in CartKit's `metadataJSON` Binary columns), no keyed archive.
        #expect(blobs >= 2, "\(blobs) blobs, \(archives) keyed archives")
    }

    @Test func metadataPlistsReadAndRewrite() throws {
        var count = 0
        for store in try Self.stores() {
            let row = try Self.open(store).read { db in
                try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
            }
            guard let row, let bytes = row["Z_PLIST"] as Data?, !bytes.isEmpty else { continue }
            count += 1
            let ours = try PropertyListReader.read(bytes)
            let foundation = try PropertyListValue(foundationObject: try PropertyListSerialization.propertyList(from: bytes, format: nil))
            #expect(ours == foundation, "\(store.lastPathComponent)")

            let rewritten = try BinaryPropertyListWriter.write(ours)
            #expect(try PropertyListReader.read(rewritten) == ours)
            let back = try PropertyListSerialization.propertyList(from: Data(rewritten), format: nil)
            #expect(try PropertyListValue(foundationObject: back) == ours, "\(store.lastPathComponent)")

            // StoreMetadata writes the same bytes whatever the dictionary order it went through.
            let metadata = try StoreMetadata.decode(uuid: row["Z_UUID"] ?? "", plist: bytes)
            let encoded = try #require(try metadata.encodedPlist())
            #expect(try PropertyListReader.read(encoded) == ours, "\(store.lastPathComponent)")
            let reread = try StoreMetadata.decode(uuid: "", plist: encoded)
            #expect(try reread.encodedPlist() == encoded)
        }
        #expect(count >= 10)
    }

    @Test func modelCacheCollectionsDecode() throws {
        var decoded = 0
        for store in try Self.stores() {
            let content = try Self.open(store).read { db -> Data? in
                guard try db.tableExists("Z_MODELCACHE") else { return nil }
                return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
            }
            guard let content else { continue }
            let archive = try KeyedArchive(data: try RawInflate.inflate(content))
            for index in archive.objects.indices where index > 0 {
                let chain = archive.classChain(index)
                guard chain.contains("NSDictionary") || chain.contains("NSArray") else { continue }
                guard let value = try? archive.propertyListObject(at: index) else { continue }
                let stored = try AttributeCoding.storedValue(TransformableInput.input(value),
                                                             for: Attribute(name: "v", type: .transformable))
                guard case .blob(let bytes) = stored.storage else { continue }
                #expect(TransformableCoding.decode(bytes) == value, "\(store.lastPathComponent) object \(index)")
                decoded += 1
            }
        }
        #expect(decoded >= 3)
    }
}

/// Property-list values as JSON input (dates and data tagged), to push Apple's values through `storedValue`.
enum TransformableInput {
    static func input(_ value: ArchivedPropertyList) -> InputValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let n): .integer(n)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .date(let d): .object([("$date", .double(d))])
        case .data(let bytes): .object([("$data", .string(Data(bytes).base64EncodedString()))])
        case .array(let items): .array(items.map(input))
        case .dictionary(let entries): .object(entries.map { ($0.0, input($0.1)) })
        }
    }
}
