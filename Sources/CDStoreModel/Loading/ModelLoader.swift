import Foundation

/// Finds and reads a model from a path, whatever form it has.
///
/// Accepted paths:
/// - `X.xcdatamodeld`: a versioned bundle; the current version comes from `.xccurrentversion`
///   (or `version` names one, e.g. "Model 2" or "Model 2.xcdatamodel"). A bundle with a single version
///   and no `.xccurrentversion` uses that version.
/// - `X.xcdatamodel`, or its `contents` file: one version.
/// - `X.json`: cdstore's JSON model (`cdstore model compile` writes it).
/// - `X.momd`: a compiled model folder; `version` picks a `.mom`, else `VersionInfo.plist`'s current version.
/// - `X.mom`: one compiled model version.
/// - `X.swift`, or a folder of `.swift` files: SwiftData `@Model` classes (read by the `swiftReader` passed in); `version`
///   picks a `VersionedSchema` by type name or identifier, or a `Schema(…)`/`ModelContainer(for:)` literal by
///   the name of the declaration holding it; `schema` picks such a literal or a `VersionedSchema` by name.
///
/// Core Data equivalent: `NSManagedObjectModel(contentsOf:)`.
package enum ModelLoader {
    /// Loads the model at `path`; `version` picks a version of an `.xcdatamodeld` bundle; `schema` one of the
    /// schemas of SwiftData sources (an error for any other model, which has none).
    /// SwiftData sources are read by `swiftReader` (an error without one).
    package static func load(_ path: String, version: String? = nil, schema: String? = nil,
                             swiftReader: (any SwiftSourceReading)? = nil) throws -> LoadedModel {
        let loaded = try read(path, version: version, schema: schema, swiftReader: swiftReader)
        try loaded.checkInheritanceDepth()
        return loaded
    }

    private static func read(_ path: String, version: String?, schema: String?,
                             swiftReader: (any SwiftSourceReading)?) throws -> LoadedModel {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, "no model at this path", file: path)
        }
        let ext = url.pathExtension.lowercased()
        if ext == "swift" || (isDirectory.boolValue && !["xcdatamodeld", "xcdatamodel", "momd"].contains(ext)
                              && SwiftSourceFiles.isSourceFolder(url)) {
            return try SwiftSources.load(url, version: version, schema: schema, reader: swiftReader)
        }
        if let schema {
            throw ModelError(.unknownVersion, "schema '\(schema)': only SwiftData sources (.swift files) have schemas "
                             + "to choose from", file: path)
        }
        if isDirectory.boolValue {
            switch ext {
            case "xcdatamodeld": return try loadBundle(url, version: version)
            case "xcdatamodel": return try loadVersion(url)
            case "momd": return try CompiledModelLoader.loadMomd(url, version: version)
            default:
                throw ModelError(.unsupportedFormat,
                                 "a folder that is not a model (expected .xcdatamodeld, .xcdatamodel, .momd or a "
                                 + "folder of SwiftData .swift sources)", file: path)
            }
        }
        if url.lastPathComponent == "contents" {
            return try readContents(url, versionName: nil)
        }
        if url.lastPathComponent == "elements" {
            throw legacyModelError(url.deletingLastPathComponent())
        }
        let data = try Data(contentsOf: url)
        if ext == "mom" || data.starts(with: Array("bplist00".utf8)) {
            return try CompiledModelLoader.loadMom(url)
        }
        if ext == "json" || data.first == UInt8(ascii: "{") {
            return try JSONModelCodec.decode(data, file: url)
        }
        if data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("<model".utf8)) {
            return try readContents(url, versionName: nil)
        }
        throw ModelError(.unsupportedFormat,
                         "not a model cdstore can read (expected .xcdatamodeld, .xcdatamodel, contents, .momd, .mom, .json "
                         + "or SwiftData .swift sources)",
                         file: path)
    }

    /// The version names of an `.xcdatamodeld` bundle, without the `.xcdatamodel` extension, in the order
    /// a person would sort them ("Model 2" before "Model 10").
    package static func versions(ofBundle bundle: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
        return names.filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// The version `.xccurrentversion` names, if the file exists and names one.
    package static func currentVersion(ofBundle bundle: URL) -> String? {
        let file = bundle.appendingPathComponent(".xccurrentversion")
        guard let data = try? Data(contentsOf: file),
              let plist = try? PropertyListReader.read(data),
              let name = plist.dictionaryValue?["_XCCurrentVersionName"]?.stringValue, !name.isEmpty
        else { return nil }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    private static func loadBundle(_ bundle: URL, version: String?) throws -> LoadedModel {
        let available = try versions(ofBundle: bundle)
        let wanted = try ModelVersionChoice.pick(requested: version,
                                                 current: currentVersion(ofBundle: bundle).map { ($0, ".xccurrentversion") },
                                                 available: available, kind: "bundle", file: bundle)
        var loaded = try loadVersion(bundle.appendingPathComponent(wanted + ".xcdatamodel"))
        loaded.versionName = wanted
        loaded.availableVersions = available
        return loaded
    }

    static func loadVersion(_ folder: URL) throws -> LoadedModel {
        let contents = folder.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("elements").path) {
                throw legacyModelError(folder)
            }
            throw ModelError(.fileNotFound, "no 'contents' file in this model version", file: folder.path)
        }
        let name = folder.deletingPathExtension().lastPathComponent
        var loaded = try readContents(contents, versionName: name)
        loaded.availableVersions = [name]
        return loaded
    }

    private static func readContents(_ file: URL, versionName: String?) throws -> LoadedModel {
        let data = try Data(contentsOf: file)
        var loaded = try XcodeModelReader.read(data, file: file)
        XcodeCompositeDefinitions.resolve(&loaded, contents: data)
        loaded.versionName = versionName
        return loaded
    }

    private static func legacyModelError(_ folder: URL) -> ModelError {
        ModelError(.legacyBinaryModel,
                   "this is a pre-Xcode 4 model (a binary 'elements' file, not 'contents'); open it in Xcode once to "
                   + "convert it, or use the compiled .mom/.momd from the app bundle", file: folder.path)
    }
}
