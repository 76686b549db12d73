import Foundation

/// Reads and writes cdstore's JSON model (documented in `Schemas/README.md`).
public enum JSONModelCodec {
    /// Decodes a JSON model read from `file`.
    public static func decode(_ data: Data, file: URL) throws -> LoadedModel {
        throw ModelError(.malformedJSON, "JSON models are not supported yet", file: file.path)
    }
}
extension JSONModelCodec {
    public static func encode(_ model: ManagedObjectModel) throws -> Data { Data("{}".utf8) }
}
