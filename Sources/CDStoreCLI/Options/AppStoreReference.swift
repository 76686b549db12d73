import CDStore
import Foundation

/// `--store @ID` and `--store @ID/File.sqlite`: a store named by its app, resolved by the library
/// (``StoreScanner/store(app:roots:)``) under `$CDSTORE_SCAN_PATH` and the platform's simulator folder.
extension StoreOptions {
    /// Whether `--store` (or `$CDSTORE_STORE`) names a store by its app.
    var namesAppStore: Bool { storePath?.hasPrefix("@") == true }

    /// Replaces an `@ID` store with the path of the store it names: the most recently changed store of that app
    /// (and file name) under the scan roots. Throws, listing them, when the app has stores of several names.
    mutating func resolveAppStore() throws {
        guard let reference = storePath, reference.hasPrefix("@") else { return }
        store = try Self.appStorePath(reference)
    }

    /// The path `reference` names: itself, or for `@ID` (and `@ID/File.sqlite`) the most recently changed store of
    /// that app under the scan roots. For the commands that take a `--store` of their own (`mcp`, `serve`, the model
    /// subcommands' `--store`).
    static func appStorePath(_ reference: String) throws -> String {
        guard reference.hasPrefix("@") else { return reference }
        let found = try StoreScanner.store(app: reference)
        if found.domain != nil {
            // A backup keeps the store under a hash and its -wal as another entry: only a scan puts them together.
            throw CDStoreError(.cannotOpen, "\(reference) is a store in an iOS backup (\(found.path)); "
                               + "read it with cdstore scan --export")
        }
        return found.path
    }
}
