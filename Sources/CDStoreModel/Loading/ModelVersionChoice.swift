import Foundation

/// Which version of a versioned model to load: the one asked for, else the one the package marks as current,
/// else the only one. The same rule for `.xcdatamodeld` bundles and compiled `.momd` folders.
enum ModelVersionChoice {
    /// The version name to load.
    /// - Parameters:
    ///   - requested: `--model-version`, with or without a `.xcdatamodel`/`.mom` extension.
    ///   - current: the version the package names as current, and the file that names it (for messages).
    ///   - available: every version in the package.
    ///   - kind: "bundle" or "compiled model", for messages.
    static func pick(requested: String?, current: (name: String, source: String)?, available: [String], kind: String,
                     file: URL) throws -> String {
        guard !available.isEmpty else {
            let message = kind == "bundle" ? "the bundle holds no .xcdatamodel version" : "the .momd holds no .mom file"
            throw ModelError(.unsupportedFormat, message, file: file.path)
        }
        if let requested {
            var name = requested
            for ext in [".mom", ".xcdatamodel"] where name.hasSuffix(ext) { name = String(name.dropLast(ext.count)) }
            guard available.contains(name) else {
                var error = ModelError(.unknownVersion, "no version '\(name)' in this \(kind); versions: "
                                       + available.joined(separator: ", "), file: file.path)
                error.input = .modelVersion
                throw error
            }
            return name
        }
        if let current {
            guard available.contains(current.name) else {
                throw ModelError(.unknownVersion, "\(current.source) names '\(current.name)' as current, which is not in "
                                 + "the \(kind)", file: file.path)
            }
            return current.name
        }
        guard available.count == 1 else {
            var error = ModelError(.unknownVersion, "nothing says which version is current; pick one by name "
                                   + "(versions: \(available.joined(separator: ", ")))", file: file.path)
            error.input = .modelVersion
            throw error
        }
        return available[0]
    }
}
