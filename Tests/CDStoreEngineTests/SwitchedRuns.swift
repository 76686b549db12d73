import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// One `cdstore` command run once per environment (the bulk-load switches of `BulkLoadSettings` on and off), each
/// run into a store of its own: what each printed and what each left in its store, to show that a switch changes
/// how a load works and nothing of what it does.
struct SwitchedRuns {
    var results: [ProcessResult] = []
    /// The rows `queries` read from each run's store, joined ("no store" when the run removed it).
    var contents: [String] = []

    /// Runs `arguments` with `--store` and a new store path added, once per environment; `before` prepares each
    /// store first.
    init(_ environments: [[String: String]], arguments: [String], folder: URL, name: String, queries: [String],
         before: (String) throws -> Void = { _ in }) throws {
        for (number, environment) in environments.enumerated() {
            let store = folder.appendingPathComponent("\(name)-\(number).sqlite").path
            try before(store)
            results.append(try CLIRunner.run(arguments + ["--store", store], environment: environment))
            // A failed insert into a new store removes the store.
            guard FileManager.default.fileExists(atPath: store) else {
                contents.append("no store")
                continue
            }
            contents.append(try DatabaseQueue(path: store).read { db in
                try queries.flatMap { try String.fetchAll(db, sql: $0) }
            }.joined(separator: ","))
        }
    }

    /// Expects every run to have exited, printed and stored what the first did; messages are compared without the
    /// stores' UUIDs, which differ from store to store.
    func expectSameOutcome(_ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for other in results.dropFirst() {
            #expect(other.status == results[0].status, comment, sourceLocation: sourceLocation)
            #expect(other.stdout == results[0].stdout, comment, sourceLocation: sourceLocation)
            #expect(Self.anyUUID(other.stderr) == Self.anyUUID(results[0].stderr), comment, sourceLocation: sourceLocation)
        }
        #expect(Set(contents).count == 1, comment, sourceLocation: sourceLocation)
    }

    private static func anyUUID(_ text: String) -> String {
        text.replacingOccurrences(of: #"x-coredata://[0-9A-F-]+/"#, with: "x-coredata://UUID/", options: .regularExpression)
    }
}
