import CDStoreModel
import CDStoreEngine
import Foundation

/// Source code from a model: Xcode's `NSManagedObject` classes (Swift or Objective-C), SwiftData `@Model`
/// classes, or `Codable` records for this library.
///
/// ```swift
/// let output = CodeGenerator.generate(try ModelFile(contentsOf: "App.xcdatamodeld"), language: .swiftdata)
/// for loss in output.losses { print("not in SwiftData:", loss) }
/// try CodeGenerator.write(output, to: URL(fileURLWithPath: "Generated"))
/// ```
///
/// Generation is a pure function of the model: the same model gives the same bytes (headers carry the model's
/// path, version and version hash, no date).
///
/// Core Data equivalent: Xcode's Editor ▸ Create NSManagedObject Subclass… (codegen "Class Definition").
///
/// ## Topics
/// - ``generate(_:language:xcodeVersion:namespace:displayPath:)``
/// - ``write(_:to:replacing:)``
public enum CodeGenerator {
    /// The language to write.
    public enum Language: String, CaseIterable, Sendable {
        /// Xcode's Swift classes: `<Class>+CoreDataClass.swift` and `<Class>+CoreDataProperties.swift` per entity.
        case swift
        /// Xcode's Objective-C classes: `+CoreDataClass.h/.m` and `+CoreDataProperties.h/.m` per entity.
        case objc
        /// One SwiftData `@Model final class` per entity; ``Output/losses`` says what SwiftData cannot express.
        case swiftdata
        /// One `Codable` ``EntityRecord`` struct per entity, relationships as ``ObjectID``s.
        case codable
    }

    /// A generated file.
    public struct File: Sendable, Equatable {
        /// The file name, e.g. `Employee+CoreDataClass.swift`.
        public var name: String
        /// The text, ending in a newline.
        public var text: String
    }

    /// The generated files and what the language could not carry over.
    public struct Output: Sendable, Equatable {
        /// The files, entity by entity in model order.
        public var files: [File]
        /// For `swiftdata`: one sentence per thing SwiftData cannot express (ordered relationships, abstract
        /// entities, fetched properties, configurations, custom Transformable classes, …), naming the entity and
        /// property and whether the version hash changes. Empty for the other languages.
        public var losses: [String]
    }

    /// The code for a model read from a file.
    ///
    /// ```swift
    /// let code = CodeGenerator.generate(try ModelFile(contentsOf: "App.xcdatamodeld"), language: .swift)
    /// try CodeGenerator.write(code, to: URL(fileURLWithPath: "Generated"))
    /// ```
    ///
    /// - Parameters:
    ///   - file: The model to generate code for.
    ///   - language: The language to write.
    ///   - xcodeVersion: The Xcode version whose format `swift` output follows: 16 and later (the default, today's
    ///     Xcode) write `public import` and the `<Class>CoreDataClassSet` typealias; 15 writes plain imports.
    ///   - namespace: For `codable`: an enum to declare the structs in, so that several models' records share a
    ///     module.
    ///   - displayPath: The path the headers name (default: the file the model was read from).
    public static func generate(_ file: ModelFile, language: Language, xcodeVersion: Int = 26, namespace: String? = nil,
                                displayPath: String? = nil) -> Output {
        let loaded = file.loaded
        let source = ModelCodeSource(path: displayPath ?? loaded.file.path, versionName: loaded.versionName)
        let code = ModelCodeWriter.generate(loaded.model, source: source, options: ModelCodeOptions(
            language: ModelCodeLanguage(rawValue: language.rawValue) ?? .swift, xcodeVersion: xcodeVersion,
            namespace: namespace))
        return Output(files: code.files.map { File(name: $0.name, text: $0.text) }, losses: code.losses)
    }

    /// The names of `output`'s files that already exist in `directory`.
    static func existingFiles(_ output: Output, in directory: URL) -> [String] {
        output.files.map(\.name).filter {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
    }

    /// Writes `output`'s files into `directory` (created when missing) and returns their URLs. Files that exist
    /// are replaced only when `replacing` is true; otherwise nothing is written and the error
    /// (``CDStoreError/Code/invalidInput``) names them.
    @discardableResult
    public static func write(_ output: Output, to directory: URL, replacing: Bool = false) throws -> [URL] {
        let existing = existingFiles(output, in: directory)
        if !existing.isEmpty && !replacing {
            throw CDStoreError(.invalidInput, "\(existing.count == 1 ? "a file exists" : "files exist") in "
                               + "\(directory.path): \(existing.joined(separator: ", ")); nothing was written",
                               file: directory.path)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try output.files.map { file in
                let url = directory.appendingPathComponent(file.name)
                try Data(file.text.utf8).write(to: url, options: .atomic)
                return url
            }
        } catch {
            throw CDStoreError(.cannotOpen, "cannot write into \(directory.path): \(error.localizedDescription)",
                               file: directory.path)
        }
    }
}
