import CZlib
import Foundation

/// Reads Apple's compiled models: `X.momd` folders (one `.mom` per version plus `VersionInfo.plist`) and bare
/// `X.mom` files. The optional `.omo` ("optimized model") is ignored; the `.mom` holds the same model.
///
/// Core Data equivalent: `NSManagedObjectModel(contentsOf:)` on a `.momd`/`.mom`.
package enum CompiledModelLoader {
    /// What `VersionInfo.plist` of a `.momd` says.
    package struct VersionInfo: Sendable, Equatable {
        /// `NSManagedObjectModel_CurrentVersionName`, if present.
        package var currentVersionName: String?
        /// `NSManagedObjectModel_VersionHashes`: version name → entity name → 32-byte hash.
        package var versionHashes: [String: [String: [UInt8]]]
        /// `NSManagedObjectModel_VersionChecksums`: version name → base64 checksum (newer Xcode only).
        package var versionChecksums: [String: String]
    }

    /// Reads `VersionInfo.plist` of a `.momd` folder (binary or XML); nil when the folder has none.
    package static func versionInfo(ofMomd folder: URL) throws -> VersionInfo? {
        let file = folder.appendingPathComponent("VersionInfo.plist")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let value: PropertyListValue
        do {
            value = try PropertyListReader.read(try Data(contentsOf: file))
        } catch {
            throw ModelError(.unsupportedFormat, "VersionInfo.plist is not a readable property list", file: file.path)
        }
        guard let dict = value.dictionaryValue else {
            throw ModelError(.unsupportedFormat, "VersionInfo.plist does not hold a dictionary", file: file.path)
        }
        var info = VersionInfo(currentVersionName: nil, versionHashes: [:], versionChecksums: [:])
        if case .string(let name)? = dict["NSManagedObjectModel_CurrentVersionName"], !name.isEmpty {
            info.currentVersionName = name
        }
        for (version, entities) in dict["NSManagedObjectModel_VersionHashes"]?.dictionaryValue ?? [:] {
            var hashes: [String: [UInt8]] = [:]
            for (entity, hash) in entities.dictionaryValue ?? [:] {
                if case .data(let bytes) = hash { hashes[entity] = bytes }
            }
            info.versionHashes[version] = hashes
        }
        for (version, checksum) in dict["NSManagedObjectModel_VersionChecksums"]?.dictionaryValue ?? [:] {
            if case .string(let text) = checksum { info.versionChecksums[version] = text }
        }
        return info
    }

    /// The version names of a `.momd` (its `.mom` files without extension), sorted as a person would.
    package static func versions(ofMomd folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".mom") }
            .map { String($0.dropLast(4)) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// Loads a `.momd`: the version `version` names, else the current version of `VersionInfo.plist`, else
    /// the only `.mom`.
    package static func loadMomd(_ folder: URL, version: String? = nil) throws -> LoadedModel {
        let available = try versions(ofMomd: folder)
        let wanted = try ModelVersionChoice.pick(requested: version,
                                                 current: try versionInfo(ofMomd: folder)?.currentVersionName.map { ($0, "VersionInfo.plist") },
                                                 available: available, kind: "compiled model", file: folder)
        var loaded = try loadMom(folder.appendingPathComponent(wanted + ".mom"))
        loaded.versionName = wanted
        loaded.availableVersions = available
        return loaded
    }

    /// Loads a bare `.mom` file.
    package static func loadMom(_ file: URL) throws -> LoadedModel {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ModelError(.fileNotFound, "cannot read the compiled model", file: file.path)
        }
        let result = try CompiledModelDecoder.decode(data, file: file.path)
        var loaded = LoadedModel(model: result.model, file: file, format: .compiled,
                                 versionName: file.deletingPathExtension().lastPathComponent,
                                 availableVersions: [file.deletingPathExtension().lastPathComponent],
                                 warnings: result.warnings)
        loaded.propertyOrder = result.propertyOrder
        return loaded
    }

    /// Decodes an archive of `NSManagedObjectModel` held in memory (a `.mom`'s bytes).
    package static func decode(_ data: Data, file: URL) throws -> LoadedModel {
        let result = try CompiledModelDecoder.decode(data, file: file.path)
        var loaded = LoadedModel(model: result.model, file: file, format: .compiled, warnings: result.warnings)
        loaded.propertyOrder = result.propertyOrder
        return loaded
    }
}

/// Reads the model Core Data caches inside a store (`Z_MODELCACHE.Z_CONTENT`): raw DEFLATE (RFC 1951, no zlib
/// header) around the same keyed archive as a `.mom`. The store layer reads the blob and hands it here.
package enum ModelCacheDecoder {
    /// Inflates and decodes a model cache; `file` names the store in errors and in ``LoadedModel/file``.
    package static func decode(_ compressed: Data, file: URL = URL(string: "Z_MODELCACHE")!) throws -> LoadedModel {
        let archive: Data
        do {
            archive = try RawInflate.inflate(compressed)
        } catch let error as RawInflate.Failure {
            throw ModelError(.unsupportedFormat, "the cached model (Z_MODELCACHE) is not raw DEFLATE data: "
                             + error.message, file: file.path)
        }
        let result = try CompiledModelDecoder.decode(archive, file: file.path)
        var loaded = LoadedModel(model: result.model, file: file, format: .storeCache, warnings: result.warnings)
        loaded.propertyOrder = result.propertyOrder
        return loaded
    }
}

/// Raw DEFLATE decompression with zlib (`inflateInit2` with window bits -15).
package enum RawInflate {
    /// Why the bytes are not a complete raw DEFLATE stream (zlib's message).
    package struct Failure: Error {
        package var message: String
    }

    /// `input` decompressed; throws ``Failure`` for damaged or truncated input and for output beyond `limit` bytes.
    package static func inflate(_ input: Data, limit: Int = 512 << 20) throws -> Data {
        guard !input.isEmpty else { throw Failure(message: "empty input") }
        var stream = z_stream()
        var status = inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(message: "zlib could not start (\(status))") }
        defer { inflateEnd(&stream) }
        var output = Data()
        var source = [UInt8](input)
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        try source.withUnsafeMutableBufferPointer { inPtr in
            stream.next_in = inPtr.baseAddress
            stream.avail_in = uInt(inPtr.count)
            repeat {
                try buffer.withUnsafeMutableBufferPointer { outPtr in
                    stream.next_out = outPtr.baseAddress
                    stream.avail_out = uInt(chunk)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else {
                        let text = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                        throw Failure(message: text)
                    }
                    output.append(outPtr.baseAddress!, count: chunk - Int(stream.avail_out))
                }
                guard output.count <= limit else { throw Failure(message: "inflated data exceeds \(limit) bytes") }
                if status != Z_STREAM_END && stream.avail_in == 0 && stream.avail_out != 0 {
                    throw Failure(message: "the compressed data ends early (truncated)")
                }
            } while status != Z_STREAM_END
        }
        return output
    }
}
