import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// The text of new rows is bound from copies an insert owns (`SQLITE_STATIC`), reused once the
/// statement ran. Every byte must reach the table, across chunks and their reuse.
@Suite("Text bound from the insert's own copies")
struct BoundTextTests {
    /// Strings of one round: empty, a NUL inside, non-ASCII, small (inline in a Swift String), several that fill
    /// more than a chunk together, and one longer than a chunk.
    static func round(_ number: Int) -> [String] {
        let chunk = BoundText.chunkBytes
        return ["", "nul\u{0}byte \(number)", "é🙂\(number)", "s\(number)",
                String(repeating: "a", count: chunk / 2) + "\(number)", String(repeating: "b", count: chunk / 2 + 7),
                String(repeating: "c", count: chunk * 2 + number)]
    }

    @Test func everyByteIsStoredAcrossChunksAndRounds() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            let columns = Self.round(0).indices.map { "c\($0)" }
            try db.execute(sql: "CREATE TABLE t (round INTEGER, \(columns.joined(separator: ", ")))")
            let statement = try RawStatement("INSERT INTO t VALUES (?\(String(repeating: ", ?", count: columns.count)))", db: db)
            let text = BoundText()
            for number in 1...20 {
                statement.bind(Int64(number), at: 1)
                for (index, value) in Self.round(number).enumerated() {
                    text.bind(value, to: statement.sqliteStatement, at: Int32(index + 2))
                }
                try statement.execute()
                text.reuse()
            }
            for number in 1...20 {
                let stored = try Row.fetchOne(db, sql: "SELECT * FROM t WHERE round = ?", arguments: [number])!
                for (index, expected) in Self.round(number).enumerated() {
                    let value = stored["c\(index)"] as DatabaseValue
                    guard case .string = value.storage else {
                        Issue.record("round \(number), c\(index): not TEXT but \(value)")
                        continue
                    }
                    let bytes = try Int.fetchOne(db, sql: "SELECT length(CAST(c\(index) AS BLOB)) FROM t WHERE round = ?",
                                                 arguments: [number])
                    #expect(bytes == expected.utf8.count, "round \(number), c\(index)")
                    let blob = try Data.fetchOne(db, sql: "SELECT CAST(c\(index) AS BLOB) FROM t WHERE round = ?", arguments: [number])
                    #expect(blob == Data(expected.utf8), "round \(number), c\(index)")
                }
            }
        }
    }
}
