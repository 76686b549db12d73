import Foundation
import PackagePlugin

/// Builds each seed store a target bundles, at build time, with `cdstore seed`.
///
/// Every folder `NAME.seed` in the target becomes the resource `NAME.sqlite` (`Bundle.module.url(forResource:
/// "NAME", withExtension: "sqlite")`). In the folder:
/// - the model: `model.json` (cdstore's JSON model), or `Model.xcdatamodeld` / `Model.xcdatamodel`;
/// - the data, read in name order: `ENTITY.json`, `ENTITY.ndjson` or `ENTITY.csv` for one entity's records, any
///   other `.json` file a graph document as `cdstore export` writes it.
///
/// The store UUID is derived from the target's and the folder's names, so the same model and data give the same
/// bytes on every machine. The command's inputs are the model's and the data's files, so the store is built again
/// only when one of them changes (or one is added or removed).
@main
struct CDStoreSeedPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target.sourceModule else { return [] }
        let cdstore = try context.tool(named: "cdstore").url
        return try SeedFolder.all(in: target.sourceFiles.map(\.url)).map { seed in
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(seed.name + ".sqlite")
            let arguments = ["seed", "--model", seed.model.path, "--out", output.path, "--force",
                             "--uuid", StoreUUID.derived(from: "\(target.name)/\(seed.name)")] + seed.data.map(\.path)
            return .buildCommand(displayName: "Seeding \(seed.name).sqlite for \(target.name)", executable: cdstore,
                                 arguments: arguments, inputFiles: seed.modelFiles + seed.data, outputFiles: [output])
        }
    }
}

/// One `NAME.seed` folder: its model and data files.
struct SeedFolder {
    var name: String
    /// The model as `cdstore seed --model` takes it (a file, or an Xcode model's folder).
    var model: URL
    /// The files the model is made of, each an input of the build command.
    var modelFiles: [URL]
    /// The data files, in name order.
    var data: [URL]

    static let dataExtensions: Set<String> = ["json", "ndjson", "csv"]
    static let modelFolders = ["Model.xcdatamodeld", "Model.xcdatamodel"]

    /// The seed folders among a target's files, in name order.
    static func all(in files: [URL]) throws -> [SeedFolder] {
        var byFolder: [URL: [URL]] = [:]
        for file in files {
            guard let folder = seedFolder(of: file) else { continue }
            byFolder[folder, default: []].append(file)
        }
        return try byFolder.keys.sorted { $0.path < $1.path }.map { folder in
            try SeedFolder(folder: folder, files: byFolder[folder]!.sorted { $0.path < $1.path })
        }
    }

    /// The `*.seed` folder a file is in, however deep.
    private static func seedFolder(of file: URL) -> URL? {
        var folder = file.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            if folder.pathExtension == "seed" { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    init(folder: URL, files: [URL]) throws {
        name = folder.deletingPathExtension().lastPathComponent
        let prefix = folder.path + "/"
        func relative(_ file: URL) -> String { String(file.path.dropFirst(prefix.count)) }
        // SwiftPM lists an Xcode model's folder as one file on some platforms and its files on others.
        if let xcode = Self.modelFolders.first(where: { name in files.contains { relative($0) == name || relative($0).hasPrefix(name + "/") } }) {
            model = folder.appendingPathComponent(xcode)
            modelFiles = files.filter { relative($0) == xcode || relative($0).hasPrefix(xcode + "/") }
        } else if let json = files.first(where: { relative($0) == "model.json" }) {
            model = json
            modelFiles = [json]
        } else {
            throw SeedPluginError("\(folder.path): no model; put model.json, Model.xcdatamodeld or Model.xcdatamodel in it")
        }
        let modelPaths = Set(modelFiles.map(\.path))
        data = files.filter {
            !modelPaths.contains($0.path) && !relative($0).contains("/") && Self.dataExtensions.contains($0.pathExtension)
        }
        if data.isEmpty { throw SeedPluginError("\(folder.path): no data files (ENTITY.json, .ndjson, .csv or graph documents)") }
    }
}

/// A store UUID derived from a name: two 64-bit FNV-1a hashes, laid out as a version-4-style UUID.
enum StoreUUID {
    static func derived(from name: String) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        var bytes = withUnsafeBytes(of: fnv(0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
            + withUnsafeBytes(of: fnv(0x6c62_272e_07bb_0142).bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return groups.joined(separator: "-")
    }
}

/// What is wrong with a seed folder, and where.
struct SeedPluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
