import Foundation

/// Every version of a model and which one is current: what an `.xcdatamodeld` bundle or a compiled `.momd`
/// holds, or a single model as its only version.
package struct ModelVersions: Sendable {
    /// The versions, in the order a person sorts their names ("Model 2" before "Model 10").
    package var versions: [LoadedModel]
    /// The position of the current version in ``versions``.
    package var currentIndex: Int

    /// Creates a set of versions.
    package init(versions: [LoadedModel], currentIndex: Int) {
        self.versions = versions
        self.currentIndex = currentIndex
    }

    /// The current version.
    package var current: LoadedModel { versions[currentIndex] }
}

extension ModelLoader {
    /// Loads every version of the model at `path`: each `.xcdatamodel` of an `.xcdatamodeld`, each `.mom` of a
    /// `.momd`; any other model (`.xcdatamodel`, `contents`, `.mom`, JSON) is its own only version.
    ///
    /// The current version is the one ``load(_:version:)`` picks: `version` when given, else the one
    /// `.xccurrentversion` or `VersionInfo.plist` names, else the only one. `schema` chooses among the schemas of
    /// SwiftData sources, as for ``load(_:version:schema:)``.
    package static func loadVersions(_ path: String, current version: String? = nil, schema: String? = nil,
                                     swiftReader: (any SwiftSourceReading)? = nil) throws -> ModelVersions {
        let current = try load(path, version: version, schema: schema, swiftReader: swiftReader)
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let names = current.availableVersions
        guard let currentName = current.versionName, names.count > 1 else {
            return ModelVersions(versions: [current], currentIndex: 0)
        }
        let load: (String) throws -> LoadedModel
        switch (current.format, url.pathExtension.lowercased()) {
        case (.xcode, "xcdatamodeld"):
            load = { name in
                var loaded = try loadVersion(url.appendingPathComponent(name + ".xcdatamodel"))
                loaded.availableVersions = names
                return loaded
            }
        case (.compiled, "momd"):
            load = { name in
                var loaded = try CompiledModelLoader.loadMom(url.appendingPathComponent(name + ".mom"))
                loaded.availableVersions = names
                return loaded
            }
        case (.swiftSource, _):
            load = { name in try SwiftSources.load(url, version: name, schema: nil, reader: swiftReader) }
        default:
            return ModelVersions(versions: [current], currentIndex: 0)
        }
        let versions = try names.map { $0 == currentName ? current : try load($0) }
        return ModelVersions(versions: versions, currentIndex: names.firstIndex(of: currentName) ?? 0)
    }
}
