import CDStore
import Foundation

/// `scan --export DIR`: each store found exported into a folder of its own, `jobs` stores at a time, and
/// `DIR/manifest.json` listing every store with what was written or why it failed.
///
/// Stores are handed over as the scan finds them; at most `jobs` are being exported and `jobs` more wait, so
/// memory holds a few stores whatever the number found. One failing store does not stop the others.
final class BatchExport: @unchecked Sendable {
    /// What the whole export did.
    struct Summary {
        var stores = 0
        var exported = 0
        var failed = 0
        var objects = 0
    }

    /// The folder exported into.
    let directory: String
    /// `DIR/manifest.json`.
    var manifestPath: String { (directory as NSString).appendingPathComponent("manifest.json") }

    private let queue = DispatchQueue(label: "cdstore.scan.export", attributes: .concurrent)
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let running: DispatchSemaphore
    private let lock = NSLock()
    /// Each store's manifest entry, by the order it was found in.
    private var entries: [Int: [(String, ObjectValue)]] = [:]
    private var summary = Summary()
    private var count = 0

    init(directory: String, jobs: Int) throws {
        self.directory = directory
        slots = DispatchSemaphore(value: jobs * 2)
        // The concurrent queue runs as many blocks as it may: this semaphore keeps `jobs` of them exporting.
        running = DispatchSemaphore(value: jobs)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError.input("cannot create \(directory) (\(error.localizedDescription))")
        }
    }

    /// Queues `store` for export; waits while `jobs` stores are being exported and `jobs` more wait.
    func add(_ store: ScannedStore) {
        let index = count
        count += 1
        let folder = Self.folderName(index: index, store: store)
        slots.wait()
        group.enter()
        queue.async { [self] in
            running.wait()
            defer {
                running.signal()
                slots.signal()
                group.leave()
            }
            let entry = Self.export(store, into: (directory as NSString).appendingPathComponent(folder), folder: folder)
            lock.lock()
            entries[index] = entry.record
            summary.stores += 1
            if entry.objects != nil { summary.exported += 1 } else { summary.failed += 1 }
            summary.objects += entry.objects ?? 0
            lock.unlock()
        }
    }

    /// Waits for every export and writes the manifest.
    func finish() throws -> Summary {
        group.wait()
        lock.lock()
        defer { lock.unlock() }
        let stores = entries.keys.sorted().compactMap { entries[$0] }.map(ObjectValue.dictionary)
        let manifest: ObjectValue = .dictionary([
            ("format", .string("cdstore-scan-export")), ("formatVersion", .integer(1)),
            ("stores", .array(stores)),
            ("exported", .integer(Int64(summary.exported))), ("failed", .integer(Int64(summary.failed))),
        ])
        do {
            try Data((manifest.description + "\n").utf8).write(to: URL(fileURLWithPath: manifestPath))
        } catch {
            throw CLIError.input("cannot write \(manifestPath) (\(error.localizedDescription))")
        }
        return summary
    }

    /// Exports one store; its manifest entry, and the objects written (nil when it failed).
    private static func export(_ store: ScannedStore, into path: String, folder: String) -> (record: [(String, ObjectValue)], objects: Int?) {
        var record = ScanCommand.record(store)
        record.insert(("folder", .string(folder)), at: 0)
        do {
            guard store.kind != nil else {
                throw CDStoreError(.cannotOpen, store.problems.first ?? "the store cannot be read")
            }
            let written = try store.export(to: path)
            let objects = written.values.reduce(0, +)
            record.append(("files", .array((["model.json"] + written.keys.sorted().map { $0 + ".ndjson" }).map(ObjectValue.string))))
            record.append(("written", .integer(Int64(objects))))
            record.append(("error", .null))
            return (record, objects)
        } catch {
            let message = (error as? CDStoreError)?.message ?? "\(error)"
            Console.error("\(store.path): \(message)")
            record.append(("files", .array([])))
            record.append(("written", .integer(0)))
            record.append(("error", .string(message)))
            return (record, nil)
        }
    }

    /// `0007-com.example.notes-Notes.sqlite`: the order found keeps names unique and sorts them as scanned.
    static func folderName(index: Int, store: ScannedStore) -> String {
        let name = String(format: "%04d", index + 1) + "-" + (store.app ?? "other") + "-" + ScanCommand.fileName(store)
        return String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    }
}
