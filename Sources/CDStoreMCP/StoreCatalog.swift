import CDStore
import Foundation

/// The stores a scan of folders found (`cdstore mcp --scan ROOT…`), and the only stores the tools can reach.
///
/// A tool's `store` argument names one of them by its path (as `list_stores` and `cdstore scan` print it; `~`,
/// relative paths, `.` and `..` are resolved first, and a symbolic link counts by what it points to) or by its
/// app: `@com.example.app`, or `@com.example.app/File.sqlite` when the app has stores of several names, choosing
/// the one changed last as `--store @ID` does. Anything else — a file outside the roots, a file under them that
/// is not a store the scan found, a link pointing out — is refused with the same words, saying nothing of what
/// lies there.
///
/// The scan runs when a tool first needs it (an assistant's `initialize` is answered at once), and again when
/// `list_stores` asks for it. Stores are read as the scan reads them: read-only and immutable, or from a private
/// copy when their `-wal` holds data, so that no byte under the roots changes; each with the model it keeps.
final class StoreCatalog {
    /// The folders and files scanned, as given.
    let roots: [String]
    private var scanned: [ScannedStore]?
    private let open: OpenStores

    /// A catalog of the stores under `roots`, keeping at most `maximumOpen` of them open.
    init(roots: [String], maximumOpen: Int) {
        self.roots = roots
        open = OpenStores(capacity: maximumOpen)
    }

    /// The number of stores open now.
    var openCount: Int { open.count }

    /// The stores found, scanning first if no scan ran yet (or `rescan` asks for a new one).
    func stores(rescan: Bool = false) -> [ScannedStore] {
        if rescan || scanned == nil {
            let found = Self.scan(roots)
            open.keep(only: Set(found.map(\.path)))
            scanned = found
        }
        return scanned ?? []
    }

    /// The open store the `store` argument names.
    func store(named reference: String) throws(ToolError) -> CDStore {
        let found = try resolve(reference)
        if let domain = found.domain {
            // A backup keeps the store under a hash and its -wal as another entry: only a scan puts them together.
            throw ToolError("store", "\(reference) is a store in an iOS backup (\(domain)); it cannot be served: "
                            + "export it with cdstore scan --export and serve the copy")
        }
        guard found.kind != nil else {
            throw ToolError("store", "\(found.path) could not be read: " + found.problems.joined(separator: "; "))
        }
        try checkStillUnderRoots(found.path)
        do {
            return try open.store(at: found.path)
        } catch {
            throw ToolError("store", "cannot open \(found.path): \((error as? CDStoreError)?.message ?? "\(error)")")
        }
    }

    /// The scanned store `reference` names: a path or an `@app` reference.
    func resolve(_ reference: String) throws(ToolError) -> ScannedStore {
        // A C path ends at its first NUL: the name would mean less than it says.
        guard !reference.contains("\u{0}") else { throw ToolError("store", "a store's path or id holds no NUL character") }
        let stores = stores()
        if reference.hasPrefix("@") { return try Self.store(app: reference, in: stores) }
        let asked = Self.standardized(reference)
        if let found = stores.first(where: { $0.path == asked }) { return found }
        if let real = Self.realPath(asked), let found = stores.first(where: { Self.realPath($0.path) == real }) {
            return found
        }
        var message = "'\(reference.prefix(300))' is not a store the scan of \(roots.joined(separator: ", ")) found; "
            + "list_stores lists them (pass a path or @app id from it)"
        if stores.contains(where: { $0.app == reference }) { message += ". To name the app's store, write @\(reference)" }
        throw ToolError("store", message)
    }

    /// The `@app` (or `@app/File`) reference naming `found`, when one does: the app's only file name and its
    /// latest install (or, the app having several, that file's latest); nil otherwise (then only its path names it).
    func reference(to found: ScannedStore, in stores: [ScannedStore]) -> String? {
        guard let app = found.app, found.kind != nil, found.domain == nil else { return nil }
        for candidate in ["@" + app, "@" + app + "/" + Self.fileName(found)] {
            if (try? Self.store(app: candidate, in: stores))?.path == found.path { return candidate }
        }
        return nil
    }

    /// The store of an app among `stores`, chosen as ``StoreScanner/store(app:roots:)`` chooses it.
    static func store(app reference: String, in stores: [ScannedStore]) throws(ToolError) -> ScannedStore {
        let parts = reference.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let app = String(parts.first ?? "")
        let file = parts.count > 1 ? String(parts[1]) : nil
        guard !app.isEmpty else { throw ToolError("store", "'\(reference.prefix(200))' names no app") }
        let found = stores.filter { $0.app == app && $0.kind != nil && (file == nil || fileName($0) == file) }
        let names = Set(found.map(fileName))
        guard names.count == 1 else {
            if found.isEmpty {
                throw ToolError("store", "the scan found \(file.map { "no store named \($0)" } ?? "no store") of "
                                + "\(app.prefix(200)); list_stores lists the stores found")
            }
            let list = names.sorted().map { "@\(app)/\($0)" }.joined(separator: ", ")
            throw ToolError("store", "\(app) has stores of \(names.count) names; name one: \(list)")
        }
        return found.max { ($0.lastModified ?? .distantPast) < ($1.lastModified ?? .distantPast) }!
    }

    /// The store's file name as the app named it (the end of its relative path in a backup).
    static func fileName(_ store: ScannedStore) -> String {
        ((store.relativePath ?? store.path) as NSString).lastPathComponent
    }

    /// Refuses a store whose path, since the scan, has come to lead out of the roots (a folder or the file
    /// replaced by a link).
    private func checkStillUnderRoots(_ path: String) throws(ToolError) {
        guard let real = Self.realPath(path) else { throw ToolError("store", "\(path) is gone since the scan") }
        let inside = roots.compactMap { Self.realPath(Self.standardized($0)) }.contains { root in
            real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
        guard inside else {
            throw ToolError("store", "\(path) now leads out of the scanned folders (a link?); it is not served")
        }
    }

    /// `path` absolute, with `~` expanded and without `.` and `..`, as the scan writes the paths it finds.
    static func standardized(_ path: String) -> String {
        var expanded = (path as NSString).expandingTildeInPath
        if !expanded.hasPrefix("/") {
            expanded = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        }
        expanded = URL(fileURLWithPath: expanded).standardized.path
        while expanded.count > 1 && expanded.hasSuffix("/") { expanded.removeLast() }
        return expanded
    }

    /// `path` with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Every store under `roots` (and every file that could not be read), in the scan's order.
    static func scan(_ roots: [String]) -> [ScannedStore] {
        let result = ScanResult()
        let scanner = StoreScanner(roots: roots)
        Task.detached {
            var found: [ScannedStore] = []
            for await store in scanner { found.append(store) }
            result.finish(found)
        }
        return result.wait()
    }
}

/// The stores a scan's task found, handed to the thread waiting for them.
private final class ScanResult: @unchecked Sendable {
    private let condition = NSCondition()
    private var stores: [ScannedStore]?

    func finish(_ found: [ScannedStore]) {
        condition.lock()
        stores = found
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> [ScannedStore] {
        condition.lock()
        defer { condition.unlock() }
        while stores == nil { condition.wait() }
        return stores ?? []
    }
}
