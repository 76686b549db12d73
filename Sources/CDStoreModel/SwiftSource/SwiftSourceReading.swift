import Foundation

/// What reads a SwiftData model from Swift sources: the parser lives in `CDStoreSwiftSource`, above this layer.
///
/// The model layer does not link swift-syntax because its ~5,000 protocol-conformance records are scanned by the
/// Swift runtime at the first dynamic cast of every process that links it, whether or not it ever reads a
/// `.swift` file: two thirds of `cdstore count`'s start-up (issue 27). So a program that reads Swift sources
/// installs a reader (``SwiftSources/install(_:)``) and the loaders go through ``SwiftSources/load(_:version:schema:)``.
package protocol SwiftSourceReading: Sendable {
    /// Reads the `.swift` file or the folder of `.swift` files at `url`, as ``ModelLoader/load(_:version:schema:)``
    /// describes for SwiftData sources.
    func load(_ url: URL, version: String?, schema: String?) throws -> LoadedModel
}

/// The one Swift source reader of the process, installed once before models are loaded.
///
/// The one piece of process-wide state of the model layer, on purpose (see ``SwiftSourceReading``): which
/// reader a program links is a property of the program, not of a call. Guarded by an `NSLock` (not
/// `Synchronization.Mutex`, which macOS 13 lacks).
package enum SwiftSources {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: (any SwiftSourceReading)?
    /// Set only by ``withoutReader(_:)``, so that a test sees no reader without changing what other tests see.
    @TaskLocal private static var withheld = false

    /// Makes `reader` the one that reads Swift sources from now on (installing again replaces it).
    package static func install(_ reader: any SwiftSourceReading) {
        lock.withLock { installed = reader }
    }

    /// The installed reader, if any.
    package static var reader: (any SwiftSourceReading)? {
        withheld ? nil : lock.withLock { installed }
    }

    /// Reads the sources at `url` with the installed reader.
    ///
    /// - Throws: ``ModelError`` with code `swiftSourcesNeedReader`, naming the path, when no reader is installed;
    ///   else what the reader throws.
    package static func load(_ url: URL, version: String?, schema: String?) throws -> LoadedModel {
        guard let reader else {
            throw ModelError(.swiftSourcesNeedReader,
                             "these are SwiftData sources, and this program was built without the Swift source "
                             + "reader (swift-syntax): link CDStoreSwiftData and call SwiftDataSources.install() "
                             + "before loading them", file: url.path)
        }
        return try reader.load(url, version: version, schema: schema)
    }

    /// Runs `body` as a process without a reader would, for tests of that case: only the current task (and the
    /// tasks it starts) sees no reader.
    package static func withoutReader<T>(_ body: () throws -> T) rethrows -> T {
        try $withheld.withValue(true, operation: body)
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
