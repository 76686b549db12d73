import CZlib
import Foundation

/// Writes the model cache Core Data keeps in a store (`Z_MODELCACHE.Z_CONTENT`): raw DEFLATE (RFC 1951, no
/// zlib header) around the keyed archive of the model (``ModelArchiver``) — what ``ModelCacheDecoder`` reads.
///
/// The bytes are a pure function of the model (and of the system's zlib): the archive is deterministic and
/// the compression level is fixed.
package enum ModelCacheEncoder {
    /// The compressed archive and what the archive left out (``ModelArchiver/Result/warnings``).
    package struct Result: Sendable {
        /// The `Z_CONTENT` bytes.
        package var data: Data
        /// Settings the archive does not hold, one sentence each.
        package var warnings: [String]
    }

    /// The cache for `model`; see ``ModelArchiver/archive(_:predicates:)`` for `predicates` and the errors.
    package static func encode(_ model: ManagedObjectModel, predicates: (any PredicateArchiving)? = nil) throws -> Result {
        let archived = try ModelArchiver.archive(model, predicates: predicates)
        return Result(data: try RawDeflate.deflate(archived.data), warnings: archived.warnings)
    }
}

/// Raw DEFLATE compression with zlib (`deflateInit2` with window bits -15), the counterpart of `RawInflate`.
package enum RawDeflate {
    /// zlib's best compression: model caches are small, and a fixed level keeps the output reproducible.
    package static let level: Int32 = 9

    /// `input` compressed as a raw DEFLATE stream (no header, no checksum).
    package static func deflate(_ input: Data) throws -> Data {
        var stream = z_stream()
        var status = deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                   Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw ModelError(.unsupportedFormat, "zlib could not start compressing (\(status))") }
        defer { deflateEnd(&stream) }
        var source = [UInt8](input)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(source.count))) + 16)
        let produced: Int = source.withUnsafeMutableBufferPointer { inPtr in
            output.withUnsafeMutableBufferPointer { outPtr in
                stream.next_in = inPtr.baseAddress
                stream.avail_in = uInt(inPtr.count)
                stream.next_out = outPtr.baseAddress
                stream.avail_out = uInt(outPtr.count)
                status = CZlib.deflate(&stream, Z_FINISH)
                return outPtr.count - Int(stream.avail_out)
            }
        }
        // deflateBound is an upper bound for a single Z_FINISH call, so anything but Z_STREAM_END is a zlib failure.
        guard status == Z_STREAM_END else { throw ModelError(.unsupportedFormat, "zlib could not compress the model (\(status))") }
        return Data(output.prefix(produced))
    }
}
