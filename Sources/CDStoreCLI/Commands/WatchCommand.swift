import ArgumentParser
import CDStore
import Foundation

/// `cdstore watch`: every object another process inserts, updates or deletes, printed as it is committed.
struct WatchCommand: ParsableCommand, StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each object other processes insert, update or delete in the store, as they commit.",
        discussion: """
        One line per changed object: the change (inserted, updated, deleted), the entity, the object's _id and, \
        for inserts and updates, its values (ndjson: "values", and "updated" naming the properties that changed; \
        table: changed properties marked with *). When the store keeps persistent history, changes come from it, \
        with the transaction's author and time; otherwise from comparing each entity's keys and versions with the \
        last snapshot. Nothing is written to the store; the writer may checkpoint or vacuum it meanwhile. A note \
        on standard error says when watching has started. Ctrl-C or SIGTERM ends the command (exit status 0).

        Examples:
          cdstore watch --store App.sqlite
          cdstore watch --store @com.example.notes --entity Note --where "pinned == YES" --format ndjson
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("Only objects of this entity (and its sub-entities); repeat for more.",
                                            valueName: "entity"), completion: .custom(ShellCompletion.entities))
    var entity: [String] = []

    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Only objects matching this predicate (inserted and updated ones after the change, deleted ones before).",
        valueName: "predicate"))
    var predicate: String?

    @Option(name: .long, help: ArgumentHelp(
        "Output format: table (one readable line per change) or ndjson. Default: table on a terminal, ndjson otherwise.",
        valueName: "format"))
    var format: OutputFormat?

    func validate() throws {
        if let format, ![.table, .ndjson].contains(format) { throw ValidationError("watch prints table or ndjson") }
    }

    func run() throws {
        guard let path = storeOptions.storePath else {
            throw CLIError.usage("no store: give --store PATH (or @APP) or set CDSTORE_STORE")
        }
        let model = storeOptions.modelPath.map { CDStore.Model.path($0, version: storeOptions.modelVersion) }
        let criteria = try PredicateOptions.criteria(predicate, arguments: [], variables: [])
        let watcher = try StoreWatcher(path: path, model: model, entities: entity, matching: criteria)
        Console.note("watching \(path) (\(watcher.usesPersistentHistory ? "from its persistent history" : "by comparing snapshots")); "
                     + "Ctrl-C ends")
        let changes = BlockingSequence(watcher)
        let stop = SignalStop { changes.cancel() }
        defer { stop.remove() }
        let printer = ChangePrinter(format: format ?? .default)
        while let change = try changes.next() { printer.print(change) }
    }
}

/// Prints changes one line each, flushed at once: someone (or a pipe) is waiting for them.
struct ChangePrinter {
    let format: OutputFormat
    private let output = TextOutput.standardOutput()

    init(format: OutputFormat) {
        self.format = format
    }

    func print(_ change: StoreChange) {
        output.line(format == .ndjson ? ObjectValue.dictionary(Self.record(change)).description : Self.line(change))
        output.flush()
    }

    /// `{"change": "updated", "entity": "Note", "_id": …, "values": {…}, "updated": ["title"], "author": …, "timestamp": …}`.
    static func record(_ change: StoreChange) -> [(String, ObjectValue)] {
        var record: [(String, ObjectValue)] = [("change", .string(change.kind.rawValue)), ("entity", .string(change.objectID.entity)),
                                               ("_id", .string(change.objectID.description))]
        if let object = change.object {
            record.append(("values", .dictionary(Array(zip(object.propertyNames, object.values)))))
        }
        if let updated = change.updatedProperties { record.append(("updated", .array(updated.map(ObjectValue.string)))) }
        if let transaction = change.transaction {
            record.append(("author", transaction.author.map(ObjectValue.string) ?? .null))
            record.append(("timestamp", transaction.date.map { .date($0.timeIntervalSinceReferenceDate) } ?? .null))
            record.append(("transaction", .integer(transaction.number)))
        }
        return record
    }

    /// `12:03:04.512  updated   Note/p3  *title="Groceries" pinned=1` (`by AUTHOR` when history names one).
    static func line(_ change: StoreChange) -> String {
        let time = ISO8601DateFormatter.string(from: change.transaction?.date ?? Date(), timeZone: .current,
                                               formatOptions: [.withTime, .withColonSeparatorInTime, .withFractionalSeconds])
        var line = "\(time)  \(change.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))  "
            + "\(change.objectID.entity)/p\(change.objectID.primaryKey)"
        if let object = change.object {
            let updated = Set(change.updatedProperties ?? [])
            for (name, value) in zip(object.propertyNames, object.values) {
                line += " " + (updated.contains(name) ? "*" : "") + name + "=" + value.description
            }
        }
        if let author = change.transaction?.author { line += "  by \(author)" }
        return line
    }
}

/// The write end of ``SignalStop``'s pipe, for its signal handler (which may only do async-signal-safe things).
nonisolated(unsafe) private var signalStopDescriptor: Int32 = -1

/// SIGINT and SIGTERM end a long-running command cleanly: the handler writes a byte to a pipe, and a thread
/// reading it runs `stop`, until ``remove()`` puts the signals' handlers back as they were (the REPL has its own).
final class SignalStop: @unchecked Sendable {
    private var previous: [(Int32, (@convention(c) (Int32) -> Void)?)] = []
    private var writeDescriptor: Int32 = -1

    init(_ stop: @escaping @Sendable () -> Void) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return }
        let readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        _ = fcntl(writeDescriptor, F_SETFL, fcntl(writeDescriptor, F_GETFL) | O_NONBLOCK)
        signalStopDescriptor = writeDescriptor
        for signalNumber in [SIGINT, SIGTERM] {
            previous.append((signalNumber, signal(signalNumber) { _ in
                var byte: UInt8 = 1
                _ = write(signalStopDescriptor, &byte, 1)
            }))
        }
        // A parent may have started the process with the signals blocked (children inherit the mask).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readDescriptor, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count > 0 { stop() }
                close(readDescriptor)
                return
            }
        }
    }

    /// Puts both signals' handlers back and ends the reading thread.
    func remove() {
        for (signalNumber, handler) in previous { signal(signalNumber, handler) }
        previous = []
        if writeDescriptor >= 0 {
            signalStopDescriptor = -1
            close(writeDescriptor)
            writeDescriptor = -1
        }
    }
}
