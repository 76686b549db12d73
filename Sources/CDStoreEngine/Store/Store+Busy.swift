import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// The error for a lock that stayed taken past the busy timeout: how long was waited, which processes have the
    /// store open (when the system tells: Linux's `/proc`), and that nothing was written.
    /// The error is about ``ErrorInput/busyTimeout``: a longer wait is what a caller can change.
    func busyError(writing: Bool) -> StoreError {
        let waited = busyTimeout > 0 ? "for \(ValueText.number(busyTimeout)) s, the longest wait allowed" : "(no wait allowed)"
        let holders = Self.processesHolding(path).map { "pid \($0.pid): \($0.command)" }
        return StoreError(.busy, "the store is locked by another connection and stayed locked \(waited)"
                          + (holders.isEmpty ? "" : "; it is open in " + holders.joined(separator: ", "))
                          + (writing ? "; nothing was written" : "")).about(.busyTimeout)
    }

    /// Other processes with `path` (or its `-wal`/`-journal`) open, and their command lines, read from `/proc`.
    /// Empty where there is no `/proc` or it cannot be read.
    static func processesHolding(_ path: String) -> [(pid: Int32, command: String)] {
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let names = Set([target, target + "-wal", target + "-journal"])
        guard let entries = try? fileManager.contentsOfDirectory(atPath: "/proc") else { return [] }
        let me = ProcessInfo.processInfo.processIdentifier
        var found: [(Int32, String)] = []
        for entry in entries {
            guard let pid = Int32(entry), pid != me,
                  let descriptors = try? fileManager.contentsOfDirectory(atPath: "/proc/\(entry)/fd") else { continue }
            let holds = descriptors.contains { descriptor in
                (try? fileManager.destinationOfSymbolicLink(atPath: "/proc/\(entry)/fd/\(descriptor)")).map(names.contains) ?? false
            }
            guard holds else { continue }
            let raw = fileManager.contents(atPath: "/proc/\(entry)/cmdline") ?? Data()
            // One line: arguments joined by spaces, line breaks inside them folded.
            let command = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            found.append((pid, command.count > 120 ? String(command.prefix(120)) + "…" : command))
        }
        return found.sorted { $0.0 < $1.0 }
    }
}

extension StoreError {
    /// An error SQLite reported, with the statement it was running cut to a readable length: generated SQL can
    /// be megabytes long (a predicate of thousands of terms).
    static func sqlite(_ error: DatabaseError) -> StoreError {
        var text = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown error")"
        if let sql = error.sql {
            text += " - while executing `" + (sql.count > 200 ? sql.prefix(200) + "…" : sql) + "`"
        }
        return StoreError(.sqlite, text)
    }
}
