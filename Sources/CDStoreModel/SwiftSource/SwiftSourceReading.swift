import Foundation

/// What reads a SwiftData model from Swift sources: the parser lives in `CDStoreSwiftSource`, above this layer.
///
/// The model layer does not link swift-syntax: its protocol-conformance records are scanned by the Swift runtime
/// at the first dynamic cast of every process that links it, whether or not it ever reads a `.swift` file, and
/// they would dominate a small command's start-up (ADR 0014). So the reader is a value: whoever loads a model
/// passes one (``ModelLoader/load(_:version:schema:swiftReader:)``), and the model read with it keeps it
/// (``LoadedModel/swiftReader``) so that a migration can read the sources' other versions the same way.
package protocol SwiftSourceReading: Sendable {
    /// Reads the `.swift` file or the folder of `.swift` files at `url`, as ``ModelLoader/load(_:version:schema:swiftReader:)``
    /// describes for SwiftData sources.
    func load(_ url: URL, version: String?, schema: String?) throws -> LoadedModel
}

/// Reading SwiftData sources with the reader a caller passed, or saying that it passed none.
package enum SwiftSources {
    /// Reads the sources at `url` with `reader`.
    ///
    /// - Throws: ``ModelError`` with code `swiftSourcesNeedReader`, naming the path, when `reader` is nil; else
    ///   what the reader throws.
    package static func load(_ url: URL, version: String?, schema: String?,
                             reader: (any SwiftSourceReading)?) throws -> LoadedModel {
        guard let reader else {
            throw ModelError(.swiftSourcesNeedReader,
                             "these are SwiftData sources, and this program reads models without the Swift source "
                             + "reader (swift-syntax): import CDStoreSwiftData and load them with its reader",
                             file: url.path)
        }
        var loaded = try reader.load(url, version: version, schema: schema)
        loaded.swiftReader = reader
        return loaded
    }
}

/// The `.swift` files of SwiftData sources, listed without parsing them (so that the model loader can tell a
/// sources folder without a reader installed).
package enum SwiftSourceFiles {
    /// The `.swift` files at `url`: the file itself, or every one under the folder (hidden folders and
    /// `.build` skipped), in path order so a model reads the same on every machine.
    package static func list(at url: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, "no Swift sources at this path", file: url.path)
        }
        guard isDirectory.boolValue else { return [url] }
        var files: [URL] = []
        let keys: [URLResourceKey] = [.isDirectoryKey]
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys,
                                                          options: [.skipsHiddenFiles]) else { return [] }
        for case let file as URL in walker {
            if file.lastPathComponent == ".build" || file.pathExtension == "xcdatamodeld" {
                walker.skipDescendants()
                continue
            }
            if file.pathExtension == "swift" { files.append(file) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Whether the folder at `url` holds any `.swift` file.
    package static func isSourceFolder(_ url: URL) -> Bool {
        (try? list(at: url).isEmpty == false) ?? false
    }
}
