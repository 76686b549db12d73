import CDStoreJSON
import Foundation
internal import GRDB
internal import GRDBSQLite

/// When the statements of a time-limited call must stop, checked by SQLite's progress handler.
final class StatementDeadline: @unchecked Sendable {
    /// `DispatchTime` uptime, in nanoseconds.
    let nanoseconds: UInt64

    init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= nanoseconds }

    /// The deadline of the time-limited call running on this thread, so that a nested one keeps the nearer one.
    @TaskLocal static var current: StatementDeadline?
}

extension Store {
    /// SQLite virtual-machine steps between two looks at the clock: a few microseconds of work.
    private static let stepsBetweenChecks: Int32 = 1000

    /// Runs `body` inside the current transaction, stopping any SQL statement it runs once `milliseconds` have
    /// passed since the call began: that statement fails with ``StoreError/Code/interrupted``. The transaction
    /// itself goes on (a read one reads the same snapshot), and statements after the call run without the limit.
    ///
    /// Unlike ``interrupt()``, which stops whatever runs on the connection from another thread, the limit is
    /// checked on the connection's own thread by SQLite's progress handler, so it never reaches another call.
    ///
    /// The corresponding SQLite function is `sqlite3_progress_handler`.
    package func withTimeLimit<T>(milliseconds: Int, _ body: () throws -> T) throws -> T {
        let transaction = try requireTransaction(for: "a time limit")
        let connection = transaction.db.sqliteConnection
        let requested = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, milliseconds)) &* 1_000_000
        let outer = StatementDeadline.current
        let deadline = StatementDeadline(nanoseconds: min(requested, outer?.nanoseconds ?? .max))
        Self.install(deadline, on: connection)
        defer { Self.install(outer, on: connection) }
        return try StatementDeadline.$current.withValue(deadline) { try body() }
    }

    /// Makes SQLite stop statements on `connection` once `deadline` has passed; nil removes the handler.
    private static func install(_ deadline: StatementDeadline?, on connection: OpaquePointer?) {
        guard let deadline else {
            sqlite3_progress_handler(connection, 0, nil, nil)
            return
        }
        // The deadline outlives the handler: `withTimeLimit` holds it until it has put the outer one back.
        let pointer = Unmanaged.passUnretained(deadline).toOpaque()
        sqlite3_progress_handler(connection, stepsBetweenChecks, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementDeadline>.fromOpaque(context).takeUnretainedValue().hasPassed ? 1 : 0
        }, pointer)
    }
}
