import Foundation

extension StoreScanner {
    /// Where a store named by its app is looked for: the folders of `$CDSTORE_SCAN_PATH` (colon-separated), then
    /// the platform's own: on macOS, the simulators' folder `~/Library/Developer/CoreSimulator/Devices` (when it
    /// exists); none elsewhere.
    public static var defaultRoots: [String] {
        var roots = (ProcessInfo.processInfo.environment["CDSTORE_SCAN_PATH"] ?? "")
            .split(separator: ":").map(String.init).filter { !$0.isEmpty }
        #if os(macOS)
        let simulators = ("~/Library/Developer/CoreSimulator/Devices" as NSString).expandingTildeInPath
        if FileManager.default.fileExists(atPath: simulators) { roots.append(simulators) }
        #endif
        return roots
    }

    /// The store of an app: `reference` is the app's (or group's) identifier, `com.example.app`, or with the
    /// store's file name when the app has several, `com.example.app/Cache.sqlite` (a leading `@` is allowed).
    ///
    /// ```swift
    /// let found = try StoreScanner.store(app: "com.example.notes")
    /// let store = try CDStore(path: found.path, options: [.readOnly])
    /// ```
    ///
    /// Of the stores of that app under `roots` (every install on every simulator, each under a new container
    /// UUID), the one changed last is chosen; stores of different file names are a choice only the caller can
    /// make, so then this throws ``CDStoreError/Code/cannotOpen`` listing them. It also throws when the app has
    /// no store under `roots`. Stores are recognised as ``StoreScanner`` recognises them, changing nothing.
    public static func store(app reference: String, roots: [String] = defaultRoots) throws -> ScannedStore {
        var name = Substring(reference)
        if name.hasPrefix("@") { name = name.dropFirst() }
        let parts = name.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let app = String(parts[0])
        let file = parts.count > 1 ? String(parts[1]) : nil
        guard !app.isEmpty else { throw CDStoreError(.cannotOpen, "'\(reference)' names no app") }
        guard !roots.isEmpty else {
            throw CDStoreError(.cannotOpen, "no folder to look for the stores of \(app) in (set CDSTORE_SCAN_PATH)")
        }
        var found: [ScannedStore] = []
        let walk = StoreWalk(roots: roots)
        while let item = walk.next() {
            guard case .file(let candidate) = item, candidate.app == app, file == nil || candidate.fileName == file,
                  let read = read(candidate), read.kind != nil else { continue }
            found.append(read)
        }
        let names = Set(found.map(\.fileName))
        guard names.count == 1 else {
            if found.isEmpty {
                let what = file.map { "no store named \($0)" } ?? "no store"
                throw CDStoreError(.cannotOpen, "\(app) has \(what) under \(roots.joined(separator: ", "))")
            }
            let list = found.sorted { ($0.fileName, $0.path) < ($1.fileName, $1.path) }
                .map { "  \(app)/\($0.fileName)  \($0.path)" }.joined(separator: "\n")
            throw CDStoreError(.cannotOpen, "\(app) has \(names.count) stores; name one as \(app)/FILE:\n\(list)")
        }
        return found.max { ($0.lastModified ?? .distantPast) < ($1.lastModified ?? .distantPast) }!
    }
}
