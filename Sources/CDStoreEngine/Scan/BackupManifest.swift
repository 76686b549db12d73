import Foundation
internal import GRDB

/// The file list of an iOS backup made by Finder or iTunes: `Manifest.db`, whose `Files` table maps every file
/// kept in the backup (as `<first 2 hex digits>/<SHA-1 hex>`) to the domain and relative path it had on the device.
///
/// `Files(fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)`: `flags` is 1 for a
/// file, 2 for a folder, 4 for a symbolic link; `domain` is `AppDomain-<bundle id>` for an app's container,
/// `AppDomainGroup-<group id>` for an app group, `AppDomainPlugin-<id>` for an extension, `HomeDomain` and others
/// for the system. A store's `-wal` is an entry of its own, with the store's relative path and `-wal` after it.
/// Only unencrypted backups can be read: an encrypted backup's `Manifest.db` is not an SQLite file.
package struct BackupManifest: Sendable {
    /// One file of the backup.
    package struct Entry: Sendable, Equatable {
        /// The SHA-1 name the file is kept under.
        package var fileID: String
        /// The domain on the device (`AppDomain-com.example.app`).
        package var domain: String
        /// The path inside the domain (`Library/Application Support/Model.sqlite`).
        package var relativePath: String
    }

    /// The backup's folder (the one holding `Manifest.db`).
    package var folder: String
    /// The files (`flags` 1), ordered by domain and relative path.
    package var files: [Entry]

    /// Whether `folder` holds a backup: a `Manifest.db` beside it.
    package static func isBackup(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("Manifest.db"))
    }

    /// Reads `folder/Manifest.db` without changing it (SQLite's `immutable=1`).
    package static func read(_ folder: String) throws -> BackupManifest {
        let path = (folder as NSString).appendingPathComponent("Manifest.db")
        do {
            let queue = try DatabaseQueue(path: Store.immutableURI(path), configuration: Store.configuration(readOnly: true, busyTimeout: 0))
            defer { try? queue.close() }
            let files = try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT fileID, domain, relativePath FROM Files WHERE flags = 1 "
                                 + "ORDER BY domain, relativePath").map {
                    Entry(fileID: $0["fileID"] ?? "", domain: $0["domain"] ?? "", relativePath: $0["relativePath"] ?? "")
                }
            }
            return BackupManifest(folder: folder, files: files)
        } catch {
            throw StoreError(.cannotOpen, "cannot read the backup's \(path) (\(Store.describe(error)); an encrypted "
                             + "backup cannot be read)")
        }
    }

    /// Where the backup keeps `entry`: `<folder>/<first two characters of its ID>/<ID>`.
    package func location(of entry: Entry) -> String {
        (folder as NSString).appendingPathComponent("\(entry.fileID.prefix(2))/\(entry.fileID)")
    }

    /// The app or group identifier a domain names (`AppDomain-ID`, `AppDomainGroup-ID`, `AppDomainPlugin-ID`),
    /// nil for the system's domains.
    package static func identifier(ofDomain domain: String) -> String? {
        for prefix in ["AppDomainGroup-", "AppDomainPlugin-", "AppDomain-"] where domain.hasPrefix(prefix) {
            return String(domain.dropFirst(prefix.count))
        }
        return nil
    }
}
