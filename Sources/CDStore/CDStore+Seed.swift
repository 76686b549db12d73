import CDStoreIO
import CDStoreJSON
import CDStoreModel
import CDStoreEngine
import Foundation

// Building a store to bundle with an app (`cdstore seed`), and removing a store's files: library calls, so that the
// command line and a Swift build script do the same thing.

extension CDStore {
    /// Builds a new store at `path` from data files, ready to bundle with an app, and returns what each file added.
    ///
    /// ```swift
    /// try CDStore.seed(at: "Seed.sqlite", model: "App.xcdatamodeld", uuid: "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10",
    ///                  from: ["seed/Company.json", "seed/Employee.csv"])
    /// ```
    ///
    /// A file named after an entity (`Employee.json`, `Employee.ndjson`, `Employee.csv`) holds that entity's
    /// records, read with `options` (key mapping, unknown keys) and, for JSON, the records at the key path `root`;
    /// any other `.json` file is a graph document as ``Context/exportGraph(as:entities:progress:to:)`` writes it.
    /// Files are read in order, each streamed in a transaction of its own. The result carries Core Data's
    /// metadata, version hashes and the model; its WAL is checkpointed, its journal mode is DELETE (one file), it
    /// is VACUUMed and verified. The same model and data give the same bytes when `uuid` is given.
    ///
    /// - Throws: ``CDStoreError``: ``CDStoreError/Code/cannotOpen`` when `path` exists; a data file's error with
    ///   its ``CDStoreError/file``, record and line; ``CDStoreError/Code/invalidInput`` when the result does not
    ///   verify. No file is left at `path` after a failure.
    @discardableResult
    public static func seed(at path: String, model: Model, uuid: String? = nil, from files: [String],
                            options: InsertOptions = .init(), root: [String] = []) throws -> [SeededFile] {
        let loaded = try CDStoreError.wrapping { try model.load() }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CDStoreError(.cannotOpen, "\(path) exists")
        }
        do {
            let store = try CDStoreError.wrapping { try Store.open(at: path, loaded: loaded, options: .init(uuid: uuid?.uppercased())) }
            var added: [SeededFile] = []
            for file in files {
                added.append(try load(file, into: store, options: options, root: root))
            }
            try CDStoreError.wrapping { try store.prepareForBundling() }
            let problems = try CDStoreError.wrapping { try store.verify() }
            guard problems.isEmpty else {
                throw CDStoreError(.invalidInput, "the seed store does not verify:\n" + problems.map(\.description).joined(separator: "\n"))
            }
            try CDStoreError.wrapping { try store.close() }
            return added
        } catch {
            destroyStore(at: path)
            throw error
        }
    }

    /// What one data file of a seed added.
    public struct SeededFile: Sendable {
        /// The data file.
        public var file: String
        /// The entity its records went into; nil for a graph document.
        public var entity: String?
        /// What the file added: objects inserted, records skipped, input keys ignored.
        public var summary: InsertSummary
    }

    /// Streams one data file into `store`.
    private static func load(_ file: String, into store: Store, options: InsertOptions,
                             root: [String]) throws -> SeededFile {
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let format = RecordInput.format(forFile: file)
        // A data file that cannot be read is bad input here, as the command line has always said (exit status 1).
        let stream: ByteStream
        do { stream = try ByteStream(path: file) } catch { throw CDStoreError(.invalidInput, "\(error)") }
        do {
            if let entity = store.model.entity(named: stem), let format {
                let resolved = try options.settings(store.model, baseDirectory: URL(fileURLWithPath: file).deletingLastPathComponent())
                var source = RecordInput.reader(stream, format: format, root: root)
                let summary = try store.insert(from: &source, into: entity.name, options: resolved)
                return SeededFile(file: file, entity: entity.name, summary: summary)
            }
            guard format == .json else {
                throw CDStoreError(.invalidInput, "\(file): not named after an entity of the model (\(stem)), and not a .json graph document")
            }
            var source = try GraphInput.reader(stream)
            let count = try store.importGraph(from: &source)
            return SeededFile(file: file, entity: nil, summary: InsertSummary(inserted: count, skipped: 0))
        } catch let error as CDStoreError {
            throw error
        } catch {
            guard var converted = CDStoreError.converting(error) as? CDStoreError else { throw error }
            converted.file = file
            converted.fileIsData = true
            converted.input = converted.input ?? .recordFile
            throw converted
        }
    }

    /// Removes the store at `path` with its `-wal`, `-shm` and `-journal` files; what does not exist is skipped.
    /// For a store that has just been created and must not be left behind (a failed first write).
    ///
    /// Core Data equivalent: `NSPersistentStoreCoordinator.destroyPersistentStore(at:type:options:)`.
    public static func destroyStore(at path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
