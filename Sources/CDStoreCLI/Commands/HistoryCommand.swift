import ArgumentParser
import CDStore
import Foundation

/// `cdstore history [STORE]`: Core Data's persistent history, as records.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print a store's persistent history: its transactions, or with --changes the objects they changed.",
        discussion: """
        Apps that turn on NSPersistentHistoryTrackingKey (every SwiftData store, CloudKit sync, apps with \
        extensions) keep a record of every save in the store: one transaction per save (ATRANSACTION) with who \
        saved it, and one change per object inserted, updated or deleted (ACHANGE). A transaction prints its \
        number (the token apps remember: --since NUMBER lists what came after it), its time, author, bundle ID, \
        process and context name, and how many changes it holds. A change prints its number, its transaction, \
        its type, the object's entity and URI, the properties an update changed, and for a delete the values \
        the entity preserves after deletion (its tombstone).

        --since takes a transaction number (transactions after it) or a date (transactions saved at or after \
        it: 2024-05-01, 2024-05-01T12:00:00Z). --entity keeps the changes of that entity and its sub-entities, \
        and the transactions holding some. A store without history tables prints no records, says so on stderr, \
        and exits 0. Read-only; the store's own model is used when --model is not given.

        cdstore keeps a store's history when it writes to one: each insert, update, delete or import adds one \
        transaction by author "cdstore" (docs/decisions/0009-persistent-history-writes.md).

        Examples:
          cdstore history App.sqlite
          cdstore history App.sqlite --changes --since 41 --format ndjson
          cdstore history App.sqlite --changes --entity Employee --format table
          cdstore history --store App.sqlite --since 2024-05-01 --format csv
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var formatOptions: FormatOptions

    @Argument(help: ArgumentHelp("The store (instead of --store).", valueName: "store"))
    var storeArgument: String?

    @Flag(name: .long, help: "Print the changes (one per object) instead of the transactions.")
    var changes = false

    @Option(name: .long, help: ArgumentHelp(
        "Only history after this transaction number, or saved at or after this date.", valueName: "number|date"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only transactions saved by this author.", valueName: "author"))
    var author: String?

    @Option(name: .long, help: ArgumentHelp(
        "Only changes of this entity (and its sub-entities), and the transactions holding some.", valueName: "entity"))
    var entity: String?

    func validate() throws {
        if storeArgument != nil && storeOptions.store != nil {
            throw ValidationError("give the store once: as an argument or with --store")
        }
        _ = try parsedSince()
    }

    /// `--since` as a token (digits) or a date.
    func parsedSince() throws -> (token: Int64?, date: Date?) {
        guard let since else { return (nil, nil) }
        if !since.isEmpty, since.allSatisfy(\.isASCII), since.allSatisfy(\.isNumber), let number = Int64(since) {
            return (number, nil)
        }
        guard let date = CDStore.date(fromText: since) else {
            throw ValidationError("--since takes a transaction number (41) or a date (2024-05-01, 2024-05-01T12:00:00Z), "
                                  + "got '\(since)'")
        }
        return (nil, date)
    }

    func run() throws {
        var options = storeOptions
        options.readOnly = true
        if let storeArgument { options.store = storeArgument }
        let (token, date) = try parsedSince()
        let format = formatOptions.resolved
        try options.withStore(create: false) { store in
            let library = store
            if try !library.hasPersistentHistory {
                Console.note("\(store.path) keeps no persistent history (it has no ATRANSACTION and ACHANGE tables; "
                             + "Core Data adds them when an app opens the store with NSPersistentHistoryTrackingKey)")
            }
            let output = TextOutput.standardOutput()
            let printer = HistoryPrinter(format: format)
            let writer = format.writer(columns: changes ? HistoryPrinter.changeColumns : HistoryPrinter.transactionColumns,
                                       output: output)
            // Pages of the library's history, so that memory holds one page however long the history is.
            var after = token
            while true {
                let page = try library.history(after: after, since: date, author: author, entity: entity, limit: 1000)
                for transaction in page {
                    if changes {
                        for change in transaction.changes { writer.write(printer.record(change)) }
                    } else {
                        writer.write(printer.record(transaction))
                    }
                }
                guard page.count == 1000, let last = page.last?.number else { break }
                after = last
            }
            writer.finish()
            output.close()
        }
    }
}

/// History records as output formats print them.
struct HistoryPrinter {
    let format: OutputFormat

    static let transactionColumns = ["transaction", "timestamp", "author", "bundleID", "processID", "contextName", "changes"]
    static let changeColumns = ["change", "transaction", "type", "entity", "object", "updated", "tombstone"]

    func record(_ transaction: HistoryTransaction) -> [(String, ObjectValue)] {
        func text(_ value: String?) -> ObjectValue { value.map { .string($0) } ?? .null }
        return [("transaction", .integer(transaction.number)), ("timestamp", transaction.date.map { .date($0.timeIntervalSinceReferenceDate) } ?? .null),
                ("author", text(transaction.author)), ("bundleID", text(transaction.bundleID)),
                ("processID", text(transaction.processID)), ("contextName", text(transaction.contextName)),
                ("changes", .integer(Int64(transaction.changes.count)))]
    }

    func record(_ change: HistoryChange) -> [(String, ObjectValue)] {
        let object = ObjectValue.string(change.objectID.description)
        return [("change", .integer(change.number)), ("transaction", .integer(change.transaction)),
                ("type", .string(change.type.description)), ("entity", .string(change.entity)),
                ("object", format.isForReading ? RecordPrinter.short(object) : object),
                ("updated", change.updatedProperties.map { .array($0.map { .string($0) }) } ?? .null),
                ("tombstone", change.tombstone.map { .dictionary($0.map { ($0.name, $0.value) }) } ?? .null)]
    }
}
