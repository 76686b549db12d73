import CDStoreIO
import CDStoreJSON
import CDStoreModel
import Foundation

/// What the fuzz targets do with an input once parsed, shared so that each target names only its parser.
public enum FuzzBodies {
    /// Reads `bytes` as `format` records to the end, as `cdstore insert --skip-invalid` does (a skippable error
    /// spoils one record and reading goes on), twice: with the default chunk size and with 3-byte chunks, so
    /// tokens split across buffer refills are exercised.
    public static func readRecords(_ bytes: [UInt8], format: RecordInput.Format) {
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
    public static func useModel(_ loaded: LoadedModel) {
        _ = ModelValidator.validate(loaded)
        _ = VersionHasher.entityHashes(of: loaded.model)
        _ = VersionHasher.versionChecksum(of: loaded.model)
    }
}
