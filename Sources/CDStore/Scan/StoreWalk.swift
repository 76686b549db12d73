import CDStoreEngine
import Foundation

/// A depth-first walk of folders and backups that hands out, one at a time, every file that may be a store.
///
/// Folders are listed in name order, so that scans of the same tree report in the same order. Symbolic links are
/// not followed (a link to a parent folder would loop; a link to a file is reported where the file lies, if
/// under a root); special files (pipes, sockets, devices) are never opened. A store's `-wal`, `-shm` and
/// `-journal` are read with the store, not as files of their own. A folder holding `Manifest.db` is a backup:
/// its files are the manifest's entries, under their domain and relative path.
final class StoreWalk {
    /// What the walk hands out.
    enum Item {
        /// A file to read: a store or not.
        case file(ScannedStore)
        /// A folder or backup that could not be listed, with its problem.
        case unreadable(ScannedStore)
    }

    private var pending: [Item] = []
    /// The next item of `pending` to hand out (a queue without moving what follows).
    private var head = 0
    private var folders: [String] = []
    private let containers = ContainerIdentity()
    /// The folders listed and the files handed out, so that overlapping roots report each store once.
    private var seen: Set<String> = []
    private static let companions = ["-wal", "-shm", "-journal"]

    /// A walk of `roots`, each a folder, a backup folder or a file.
    init(roots: [String]) {
        for root in roots {
            let path = Self.standardized(root)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                if isFolder.boolValue {
                    folders.append(path)
                } else {
                    pending.append(.file(ScannedStore(path: path, app: containers.app(of: path))))
                }
            } else {
                var missing = ScannedStore(path: path, app: nil)
                missing.problems = ["no such file or folder"]
                pending.append(.unreadable(missing))
            }
        }
        folders.reverse()
    }

    /// The next file to read, or nil when the walk is over.
    func next() -> Item? {
        while true {
            if head < pending.count {
                defer { head += 1 }
                if case .file(let found) = pending[head], !seen.insert(found.path).inserted { continue }
                return pending[head]
            }
            pending.removeAll(keepingCapacity: true)
            head = 0
            guard let folder = folders.popLast() else { return nil }
            list(folder)
        }
    }

    /// Queues the files of `folder` and pushes its sub-folders (so that they are walked next, in name order).
    private func list(_ folder: String) {
        guard seen.insert(folder).inserted else { return }
        if BackupManifest.isBackup(folder) {
            listBackup(folder)
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            var item = ScannedStore(path: folder, app: containers.app(of: folder))
            item.problems = ["cannot list the folder (\(Self.reason(error)))"]
            pending.append(.unreadable(item))
            return
        }
        let present = Set(names)
        var subfolders: [String] = []
        for name in names {
            if let companion = Self.companions.first(where: { name.hasSuffix($0) }),
               present.contains(String(name.dropLast(companion.count))) {
                continue
            }
            let path = (folder as NSString).appendingPathComponent(name)
            guard let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType else {
                continue
            }
            switch type {
            case .typeDirectory: subfolders.append(path)
            case .typeRegular: pending.append(.file(ScannedStore(path: path, app: containers.app(of: path))))
            default: continue
            }
        }
        folders.append(contentsOf: subfolders.reversed())
    }

    /// Queues the files of the backup at `folder`, with the `-wal` entry of each.
    private func listBackup(_ folder: String) {
        let manifest: BackupManifest
        do {
            manifest = try BackupManifest.read(folder)
        } catch {
            var item = ScannedStore(path: (folder as NSString).appendingPathComponent("Manifest.db"), app: nil)
            item.problems = [(error as? StoreError)?.message ?? Self.reason(error)]
            pending.append(.unreadable(item))
            return
        }
        var byPlace: [String: BackupManifest.Entry] = [:]
        for entry in manifest.files { byPlace[entry.domain + "/" + entry.relativePath] = entry }
        for entry in manifest.files {
            let place = entry.domain + "/" + entry.relativePath
            if let companion = Self.companions.first(where: { entry.relativePath.hasSuffix($0) }),
               byPlace[String(place.dropLast(companion.count))] != nil {
                continue
            }
            let wal = byPlace[place + "-wal"].map(manifest.location(of:))
            pending.append(.file(ScannedStore(path: manifest.location(of: entry), app: BackupManifest.identifier(ofDomain: entry.domain),
                                              domain: entry.domain, relativePath: entry.relativePath, walPath: wal)))
        }
    }

    /// `path` absolute, with `~` expanded, without `.` and `..`, and no trailing slash.
    static func standardized(_ path: String) -> String {
        var expanded = (path as NSString).expandingTildeInPath
        if !expanded.hasPrefix("/") {
            expanded = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        }
        // `.` and `..` go (symbolic links stay as given: the path reported is the one walked).
        expanded = URL(fileURLWithPath: expanded).standardized.path
        while expanded.count > 1 && expanded.hasSuffix("/") { expanded.removeLast() }
        return expanded
    }

    /// The system's words for a file error (`Permission denied`), without Foundation's sentence around them.
    static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return (error as NSError).localizedDescription
    }
}
