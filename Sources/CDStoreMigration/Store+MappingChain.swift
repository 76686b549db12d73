import CDStoreEngine
import CDStoreModel
import Foundation

/// A chain of model versions to migrate through, with the mapping model each hop runs (nil: inferred).
struct PlannedChain {
    var models: [(LoadedModel, String)]
    var steps: [MappedStep?]
    var warnings: [String] = []

    init(models: [(LoadedModel, String)], steps: [MappedStep?]? = nil, warnings: [String] = []) {
        self.models = models
        self.steps = steps ?? Array(repeating: nil, count: max(0, models.count - 1))
        self.warnings = warnings
    }
}

/// A mapping model found for a migration, with the entity hashes of the model versions it names when known.
///
/// A mapping model found beside the model and one given by path are matched to hops alike: the versions it
/// names are looked for beside it, then in the folder holding the model migrated to, and a hop is its own only
/// when their entity hashes are the hop's (the compiled `.cdm` records them per entity mapping).
struct MappingCandidate {
    var model: MappingModel
    var sourceHashes: [String: [UInt8]]?
    var destinationHashes: [String: [UInt8]]?
    /// Whether it was given by path (`MigrationOptions/mappingPaths`) rather than found beside the model.
    var isGiven = false

    init(_ model: MappingModel, modelFolder: URL? = nil, isGiven: Bool = false) {
        self.model = model
        self.isGiven = isGiven
        let (source, destination) = model.modelVersionFiles(alsoUnder: modelFolder.map { [$0] } ?? [])
        sourceHashes = source.flatMap { try? ModelLoader.load($0.path) }.map { VersionHasher.entityHashes(of: $0.model) }
        destinationHashes = destination.flatMap { try? ModelLoader.load($0.path) }.map { VersionHasher.entityHashes(of: $0.model) }
    }

    /// Whether it maps the model whose entity hashes are `from` to the one whose entity hashes are `to`.
    func matches(_ from: [String: [UInt8]], _ to: [String: [UInt8]]) -> Bool {
        !model.entityMappings.isEmpty
            && model.mismatches(sourceHashes: from, destinationHashes: to, knownSource: sourceHashes,
                                knownDestination: destinationHashes).isEmpty
    }
}

extension Store {
    /// The mapping models for migrating to `destination`: every `.xcmappingmodel` and `.cdm` under the folder
    /// holding its model (recursively, as an app bundle holds its `.cdm` files beside the `.momd`), then each of
    /// `paths`. A file found that cannot be read is skipped with a warning; one given that cannot be read is an error.
    static func mappingCandidates(destination: LoadedModel, paths: [String]) throws -> (candidates: [MappingCandidate], warnings: [String]) {
        var found: [String] = []
        let root = (bundleURL(of: destination) ?? destination.file).deletingLastPathComponent()
        if let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil,
                                                           options: [.skipsHiddenFiles, .skipsPackageDescendants]) {
            var visited = 0
            for case let url as URL in enumerator {
                visited += 1
                if visited > 50_000 { break }
                switch url.pathExtension {
                case "xcmappingmodel":
                    found.append(url.path)
                    enumerator.skipDescendants()
                case "cdm": found.append(url.path)
                case "xcdatamodeld", "momd", "git", "build": enumerator.skipDescendants()
                default: continue
                }
            }
        }
        var candidates: [MappingCandidate] = []
        var warnings: [String] = []
        for path in found.sorted() {
            do {
                candidates.append(MappingCandidate(try MappingModelReader.read(path), modelFolder: root))
            } catch {
                warnings.append("skipped the mapping model \(path): \(error)")
            }
        }
        // A mapping model given by path may also be one found beside the model, under another spelling of its path.
        func samePlace(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        for path in paths {
            if let known = candidates.firstIndex(where: { samePlace($0.model.file) == samePlace(path) }) {
                candidates[known].isGiven = true
                continue
            }
            do {
                candidates.append(MappingCandidate(try MappingModelReader.read(path), modelFolder: root, isGiven: true))
            } catch let error as ModelError {
                throw StoreError(.cannotOpen, "cannot read the mapping model \(path): \(error)")
            }
        }
        return (candidates, warnings)
    }

    /// The chain through the bundle's versions (or straight from the store's model to `destination`) that uses a
    /// mapping model wherever one matches, preferring the one that goes furthest, and inference elsewhere: from
    /// each model, a matching mapping model's hop; else straight to `destination` when that can be inferred and
    /// no mapping model matches further on; else an inferred hop to the next version.
    static func mappedChain(from source: SourceModel, to destination: LoadedModel, candidates: [MappingCandidate],
                            options: MigrationOptions) throws -> PlannedChain? {
        let destinationName = destination.versionName.map { "\"\($0)\"" } ?? "the given model"
        var nodes: [(LoadedModel, String)] = [(source.loaded, source.name)]
        if let start = source.versionIndex, let bundle = bundleURL(of: destination), let name = destination.versionName,
           let versions = try? ModelLoader.versions(ofBundle: bundle), let end = versions.firstIndex(of: name), end > start {
            for version in versions[(start + 1)..<end] {
                nodes.append((try ModelLoader.load(bundle.path, version: version), "\"\(version)\""))
            }
        }
        nodes.append((destination, destinationName))
        // Each version is hashed once: every pair of versions is matched against every mapping model.
        let hashes = nodes.map { VersionHasher.entityHashes(of: $0.0.model) }
        func mapping(from i: Int) -> (Int, MappingCandidate)? {
            for j in stride(from: nodes.count - 1, to: i, by: -1) {
                if let candidate = candidates.first(where: { $0.matches(hashes[i], hashes[j]) }) { return (j, candidate) }
            }
            return nil
        }
        guard (0..<nodes.count - 1).contains(where: { mapping(from: $0) != nil }) else { return nil }
        var chain: [(LoadedModel, String)] = [nodes[0]]
        var steps: [MappedStep?] = []
        var current = 0
        let last = nodes.count - 1
        while current < last {
            let prefix = "cdmv\(steps.count + 1)_"
            if let (next, candidate) = mapping(from: current) {
                steps.append(try MappedStep(model: candidate.model, source: nodes[current].0.model, destination: nodes[next].0.model,
                                            withoutPolicies: options.withoutPolicies, prefix: prefix))
                chain.append(nodes[next])
                current = next
                continue
            }
            let laterMapping = (current + 1..<last).contains { mapping(from: $0) != nil }
            if !laterMapping, (try? InferredMapping(source: nodes[current].0.model, destination: destination.model,
                                                    sourceName: nodes[current].1, destinationName: destinationName)) != nil {
                steps.append(nil)
                chain.append(nodes[last])
                break
            }
            _ = try InferredMapping(source: nodes[current].0.model, destination: nodes[current + 1].0.model,
                                    sourceName: nodes[current].1, destinationName: nodes[current + 1].1)
            steps.append(nil)
            chain.append(nodes[current + 1])
            current += 1
        }
        return PlannedChain(models: chain, steps: steps, warnings: steps.compactMap { $0?.warnings }.flatMap { $0 })
    }
}
