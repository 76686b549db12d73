import Foundation

/// Writes a model in the form its output path names: what `cdstore model compile -o PATH` does.
///
/// | path | written |
/// |---|---|
/// | `X.xcdatamodeld` | a bundle with every version (`<version>.xcdatamodel/contents`) and `.xccurrentversion` |
/// | `X.xcdatamodel` | the current version's folder with its `contents` |
/// | `.mom`, `.momd` | refused: cdstore does not write compiled models |
/// | anything else | cdstore's JSON model of the current version (`Schemas/README.md`) |
///
/// An existing output is replaced as a whole, as a file would be: the new files are built beside it and
/// moved into place, so a folder never mixes old versions with new ones.
package enum ModelFileWriter {
    /// The forms a model can be written in.
    package enum Format: String, Sendable, Equatable {
        /// cdstore's JSON model.
        case json
        /// One Xcode model version folder.
        case xcdatamodel
        /// An Xcode model bundle with every version.
        case xcdatamodeld

        /// The form `path` names by its extension.
        package init(path: String) throws {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "xcdatamodeld": self = .xcdatamodeld
            case "xcdatamodel": self = .xcdatamodel
            case "mom", "momd", "omo":
                throw ModelError(.unsupportedFormat, "cdstore does not write compiled models; write an .xcdatamodeld "
                                 + "and compile it with Xcode (or use the JSON model)", file: path)
            default: self = .json
            }
        }
    }

    /// Writes `versions` to `path` in the form the path names and returns what the form could not hold (see
    /// ``XcodeModelWriter/limitations(of:)``), one sentence per problem, prefixed with the version's name.
    @discardableResult
    package static func write(_ versions: ModelVersions, to path: String) throws -> [String] {
        let output = URL(fileURLWithPath: path).standardizedFileURL
        switch try Format(path: path) {
        case .json:
            try JSONModelCodec.encode(versions.current.model).write(to: output, options: .atomic)
            return []
        case .xcdatamodel:
            try replace(output) { try XcodeModelWriter.writeVersion(versions.current.model, to: $0) }
            return XcodeModelWriter.limitations(of: versions.current.model)
        case .xcdatamodeld:
            let fallback = output.deletingPathExtension().lastPathComponent
            let named = versions.versions.map { (name: $0.versionName ?? fallback, model: $0.model) }
            try replace(output) {
                try XcodeModelWriter.writeBundle(named, current: named[versions.currentIndex].name, to: $0)
            }
            return named.flatMap { version in
                XcodeModelWriter.limitations(of: version.model).map { named.count > 1 ? "\(version.name): \($0)" : $0 }
            }
        }
    }

    /// Builds a folder with `build` beside `output`, then puts it in `output`'s place.
    static func replace(_ output: URL, build: (URL) throws -> Void) throws {
        let manager = FileManager.default
        let parent = output.deletingLastPathComponent()
        guard manager.fileExists(atPath: parent.path) else {
            throw ModelError(.fileNotFound, "no folder \(parent.path) to write into", file: output.path)
        }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: output.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ModelError(.unsupportedFormat, "a file is in the way (an Xcode model is a folder)", file: output.path)
        }
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).cdstore-\(UUID().uuidString)")
        do {
            try build(staging)
            if manager.fileExists(atPath: output.path) { try manager.removeItem(at: output) }
            try manager.moveItem(at: staging, to: output)
        } catch {
            try? manager.removeItem(at: staging)
            throw error
        }
    }
}
