import CDStoreModel
import Foundation

/// Every model cdstore's tests know, for round trips through a format: every version of every corpus bundle, the
/// models in `Schemas/` (every version of a bundle, and the JSON models) and those in `Tests/Fixtures`.
package enum EveryModel {
    /// The models, each with a name for messages (`Bundle.xcdatamodeld/Version.xcdatamodel`, `Company.json`).
    package static func load() throws -> [(name: String, loaded: LoadedModel)] {
        var result: [(String, LoadedModel)] = []
        for version in try Corpus.allModelVersions() {
            result.append((version.deletingLastPathComponent().lastPathComponent + "/" + version.lastPathComponent,
                           try ModelLoader.load(version.path)))
        }
        for folder in [Corpus.schemas, Fixtures.root] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let url = folder.appendingPathComponent(name)
                if url.pathExtension == "json" {
                    result.append((name, try ModelLoader.load(url.path)))
                } else if url.pathExtension == "xcdatamodeld" {
                    for version in try Corpus.versions(of: url) {
                        result.append((name + "/" + version.lastPathComponent, try ModelLoader.load(version.path)))
                    }
                }
            }
        }
        return result
    }
}
