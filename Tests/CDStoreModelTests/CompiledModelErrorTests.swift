import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Broken compiled models and model caches fail with an error naming the file and what is wrong.
@Suite struct CompiledModelErrorTests {
    static let swiftGen = Corpus.compiled.appendingPathComponent("SwiftGen__SwiftGen__Model.momd")

    func momBytes() throws -> Data {
        try Data(contentsOf: Self.swiftGen.appendingPathComponent("Model 2.mom"))
    }

    @Test func truncatedArchive() throws {
        let data = try momBytes()
        for length in [0, 7, 40, data.count / 2, data.count - 1] {
            let file = URL(fileURLWithPath: "/tmp/Truncated.mom")
            let error = try #require(throws: ModelError.self) {
                try CompiledModelLoader.decode(data.prefix(length), file: file)
            }
            #expect(error.file == file.path)
            #expect(error.code == .unsupportedFormat, "\(length): \(error)")
        }
    }

    @Test func notAKeyedArchive() throws {
        let plist = try Data(contentsOf: Self.swiftGen.appendingPathComponent("VersionInfo.plist"))
        let error = try #require(throws: ModelError.self) {
            try CompiledModelLoader.decode(plist, file: URL(fileURLWithPath: "/tmp/VersionInfo.mom"))
        }
        #expect(error.code == .unsupportedFormat)
        #expect(error.description == "/tmp/VersionInfo.mom: not a keyed archive (no $archiver = NSKeyedArchiver)")
        let text = try #require(throws: ModelError.self) {
            try CompiledModelLoader.decode(Data("hello".utf8), file: URL(fileURLWithPath: "/tmp/x.mom"))
        }
        #expect(text.code == .unsupportedFormat)
        #expect(text.description == "/tmp/x.mom: not a property list (cdstore reads binary bplist00 and XML property lists)")
    }

    @Test func archiveOfSomethingElse() throws {
        // A keyed archive whose root is an NSDictionary, written as XML (UIDs as CF$UID dictionaries).
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
        <key>$objects</key><array>
          <string>$null</string>
          <dict><key>NS.keys</key><array/><key>NS.objects</key><array/>
                <key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict></dict>
          <dict><key>$classname</key><string>NSDictionary</string>
                <key>$classes</key><array><string>NSDictionary</string><string>NSObject</string></array></dict>
        </array></dict></plist>
        """
        let error = try #require(throws: ModelError.self) {
            try CompiledModelLoader.decode(Data(xml.utf8), file: URL(fileURLWithPath: "/tmp/dict.mom"))
        }
        #expect(error.code == .unsupportedFormat)
        #expect(error.description == "/tmp/dict.mom: the keyed archive holds a NSDictionary, not an NSManagedObjectModel")
    }

    @Test func badDeflateData() throws {
        for bytes in [Data(), Data([0xFF, 0xFF, 0xFF, 0xFF, 0x00]), Data("bplist00 not compressed".utf8)] {
            let error = try #require(throws: ModelError.self) {
                try ModelCacheDecoder.decode(bytes, file: URL(fileURLWithPath: "/tmp/Store.sqlite"))
            }
            #expect(error.code == .unsupportedFormat)
            // zlib's own words follow ("empty input", "invalid block type", …): they are zlib's, not pinned here.
            #expect(error.description.hasPrefix("/tmp/Store.sqlite: the cached model (Z_MODELCACHE) is not raw DEFLATE data: "))
            #expect(error.file == "/tmp/Store.sqlite")
        }
        // A raw-deflate stream that stops early: a stored block header promising more bytes than follow.
        let truncated = Data([0x01, 0x10, 0x00, 0xEF, 0xFF, 0x41, 0x42])
        let early = #expect(throws: ModelError.self) { try ModelCacheDecoder.decode(truncated) }
        #expect(early?.code == .unsupportedFormat)
        #expect(early?.description
                == "Z_MODELCACHE: the cached model (Z_MODELCACHE) is not raw DEFLATE data: the compressed data ends early (truncated)")
        // A complete stored block holding a non-archive (Foundation's OpenStep parser once read "hello" as a string;
        // cdstore reads binary and XML property lists only).
        let stored = Data([0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8))
        let error = try #require(throws: ModelError.self) { try ModelCacheDecoder.decode(stored) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.description == "Z_MODELCACHE: not a property list (cdstore reads binary bplist00 and XML property lists)")
    }

    @Test func momdWithoutVersionInfoAndSeveralMoms() throws {
        let folder = try temporaryDirectory().appendingPathComponent("Two.momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["A.mom", "B.mom"] {
            try momBytes().write(to: folder.appendingPathComponent(name))
        }
        let error = try #require(throws: ModelError.self) { try ModelLoader.load(folder.path) }
        #expect(error.code == .unknownVersion)
        #expect(error.description
                == "\(folder.path): nothing says which version is current; pick one by name (versions: A, B)")
        #expect(error.file == folder.path)
        // Naming a version works, with or without the extension.
        #expect(try ModelLoader.load(folder.path, version: "B").versionName == "B")
        #expect(try ModelLoader.load(folder.path, version: "A.mom").versionName == "A")
        let unknown = try #require(throws: ModelError.self) { try ModelLoader.load(folder.path, version: "C") }
        #expect(unknown.code == .unknownVersion)
        #expect(unknown.description == "\(folder.path): no version 'C' in this compiled model; versions: A, B")
    }

    @Test func emptyMomdAndBareMom() throws {
        let folder = try temporaryDirectory().appendingPathComponent("Empty.momd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let error = try #require(throws: ModelError.self) { try ModelLoader.load(folder.path) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.description == "\(folder.path): the .momd holds no .mom file")
        // A bare .mom loads through ModelLoader, whatever its extension says, as long as it is a binary plist.
        let mom = Self.swiftGen.appendingPathComponent("Model.mom")
        let loaded = try ModelLoader.load(mom.path)
        #expect(loaded.format == .compiled)
        #expect(loaded.versionName == "Model")
        let renamed = try temporaryDirectory().appendingPathComponent("model.bin")
        try FileManager.default.copyItem(at: mom, to: renamed)
        #expect(try ModelLoader.load(renamed.path).model == loaded.model)
    }
}
