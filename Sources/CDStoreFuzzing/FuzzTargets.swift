import CDStoreIO
import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import CDStoreEngine
import CDStoreSwiftSource
import Foundation

/// What each libFuzzer target in `Fuzz/` does with one input: the project's parsers of untrusted input, reached
/// here with the project's own (`package`) access, so that the fuzz package (a package of its own, built with
/// sanitizers) needs nothing of the library's public API. Thrown errors are the parsers' job; crashes, hangs and
/// runaway allocations are findings. Not part of `import CDStore`.
public enum FuzzTargets {
    /// Predicate format strings: `PredicateParser.parse`, then `parseExpression` on the same text; a parsed tree is
    /// printed and parsed again, so the printer runs on every tree the parser builds.
    public static func predicate(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let node = try? PredicateParser.parse(text) {
            _ = try? PredicateParser.parse(String(describing: node))
        }
        if let expression = try? PredicateParser.parseExpression(text) {
            _ = String(describing: expression)
        }
    }

    /// A text attribute's regular expression and a value, split at the first NUL byte: when ``SimplePattern`` takes
    /// the pattern and ICU compiles it, both must give the same answer for the value; a different one is a finding.
    public static func pattern(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.count
        let pattern = String(decoding: bytes[..<split], as: UTF8.self)
        let value = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : ""
        guard let simple = SimplePattern(pattern), let answer = simple.matchesWhole(value),
              let expression = try? NSRegularExpression(pattern: pattern) else { return }
        let icu = SimplePattern.matchesWhole(value, expression)
        if answer != icu { fatalError("SimplePattern \(pattern.debugDescription) on \(value.debugDescription): \(answer), ICU: \(icu)") }
    }

    /// The `contents` XML of an `.xcdatamodel` (cdstore's own XML reader), then validation and hashes.
    public static func xmlModel(_ bytes: [UInt8]) {
        let file = URL(fileURLWithPath: "/fuzz/Model.xcdatamodel/contents")
        guard let loaded = try? XcodeModelReader.read(Data(bytes), file: file) else { return }
        useModel(loaded)
    }

    /// An Xcode mapping model (`xcmapping.xml`, cdstore's own XML reader, with base64 keyed archives inside), then
    /// its text and JSON forms and a parse of every expression it holds.
    public static func xcmapping(_ bytes: [UInt8]) {
        guard let mapping = try? MappingModelReader.readXcode(bytes, file: "/fuzz/M.xcmappingmodel/xcmapping.xml") else { return }
        useMapping(mapping)
    }

    /// A compiled mapping model (`.cdm`: an `NSMappingModel` keyed archive walked through the cycle guard), then as
    /// ``xcmapping(_:)``.
    public static func cdm(_ bytes: [UInt8]) {
        guard let mapping = try? MappingModelReader.readCompiled(Data(bytes), file: "/fuzz/M.cdm") else { return }
        useMapping(mapping)
    }

    static func useMapping(_ mapping: MappingModel) {
        for entityMapping in mapping.entityMappings {
            for property in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                if let text = property.valueExpression { _ = try? PredicateParser.parseExpression(text) }
            }
            if let filter = entityMapping.filterPredicate { _ = try? PredicateParser.parse(filter) }
        }
    }

    /// A cdstore JSON model, then validation and hashes.
    public static func jsonModel(_ bytes: [UInt8]) {
        guard let loaded = try? JSONModelCodec.decode(Data(bytes), file: URL(fileURLWithPath: "/fuzz/Model.json")) else { return }
        useModel(loaded)
    }

    /// A compiled model (`.mom`: a keyed archive), then validation and hashes.
    public static func compiledModel(_ bytes: [UInt8]) {
        guard let loaded = try? CompiledModelLoader.decode(Data(bytes), file: URL(fileURLWithPath: "/fuzz/Model.mom")) else { return }
        useModel(loaded)
    }

    /// SwiftData `@Model` sources (swift-syntax's parser, then the declaration collector, type mapping and
    /// inverse inference), then validation and hashes.
    public static func swiftModel(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let origin = URL(fileURLWithPath: "/fuzz/Model.swift")
        guard let loaded = try? SwiftModelReader.read([("/fuzz/Model.swift", text)], origin: origin) else { return }
        useModel(loaded)
    }

    /// Property lists, binary and XML (cdstore's own readers), then `KeyedArchive(plist:)` over the result, as the
    /// compiled-model decoder starts.
    public static func plist(_ bytes: [UInt8]) {
        guard let plist = try? PropertyListReader.read(bytes) else { return }
        if let archive = try? KeyedArchive(plist: plist) {
            _ = archive.describe(plist)
        }
    }

    /// NDJSON records, read to the end as `insert --skip-invalid` reads them.
    public static func ndjson(_ bytes: [UInt8]) { readRecords(bytes, format: .ndjson) }

    /// JSON records (an object or an array of objects), read to the end.
    public static func jsonRecords(_ bytes: [UInt8]) { readRecords(bytes, format: .json) }

    /// CSV records with a header row, read to the end.
    public static func csv(_ bytes: [UInt8]) { readRecords(bytes, format: .csv) }

    /// Reads `bytes` as `format` records to the end, as `cdstore insert --skip-invalid` does (a skippable error
    /// spoils one record and reading goes on), twice: with the default chunk size and with 3-byte chunks, so
    /// tokens split across buffer refills are exercised.
    static func readRecords(_ bytes: [UInt8], format: RecordInput.Format) {
        for chunkSize in [ByteStream.defaultChunkSize, 3] {
            var reader = RecordInput.reader(ByteStream(bytes: bytes, chunkSize: chunkSize), format: format)
            // Every record, and every skipped one, consumes at least one byte: more of them than bytes is a loop.
            var finished = false
            for _ in 0...bytes.count + 1 where !finished {
                do {
                    finished = try reader.next() == nil
                } catch let error as RecordInput.InputError where error.isSkippable {
                    continue
                } catch {
                    finished = true
                }
            }
            precondition(finished, "the reader gives more records than the input has bytes")
        }
    }

    /// What `cdstore model` does with a loaded model: validate it and compute its version hashes.
    static func useModel(_ loaded: LoadedModel) {
        _ = ModelValidator.validate(loaded)
        _ = VersionHasher.entityHashes(of: loaded.model)
        _ = VersionHasher.versionChecksum(of: loaded.model)
    }
}
