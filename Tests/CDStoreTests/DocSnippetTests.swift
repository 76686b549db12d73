import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// The ```` ```swift ```` examples in the doc comments of public declarations and in the DocC articles,
/// type-checked with swiftc against the built `CDStore` and `CDStoreSwiftData` modules, so that an example cannot
/// go on showing a call that changed or a declaration a user cannot reach.
///
/// Each example becomes the body of a function in which the values examples take for granted exist
/// (``assumedValues``: `ctx`, `store`, `deptID`, …); `import` lines are dropped and declarations lose `public`,
/// as they are local there. Examples of SwiftData app code (`@Model` classes the library reads, not calls) and of
/// a package manifest (`// Package.swift`) are not Swift that uses the library and are left out.
@Suite struct DocSnippetTests {
    /// The modules whose public declarations a user of the two products reaches.
    static let modules = ["CDStore", "CDStoreSwiftData", "CDStoreModel", "CDStoreEngine", "CDStoreIO",
                          "CDStoreComparison", "CDStoreMigration", "CDStorePredicate"]

    /// The values the examples use without making them.
    static let assumedValues = """
        let ctx: CDStore.Context = assumed(); let store: CDStore = assumed()
        let before: CDStore = assumed(); let after: CDStore = assumed()
        let model: ManagedObjectModel = assumed(); let employee: StoredObject = assumed(); let person: StoredObject = assumed()
        let deptID: ObjectID = assumed(); let annID: ObjectID = assumed(); let boID: ObjectID = assumed()
        let salesID: ObjectID = assumed(); let sales: ObjectID = assumed(); let acmeID: ObjectID = assumed()
        let found: ScannedStore = assumed()
        let someDate: Date = assumed(); let yesterday: Date = assumed()
        let path: String = assumed(); let evidence: String = assumed(); let url: URL = assumed()
        let handle: FileHandle = assumed(); var total = 0.0
        """

    /// One example: its lines and where the first one is.
    struct Snippet {
        var file: String
        var line: Int
        var code: [String]
    }

    @Test func publicDocCommentExamplesTypeCheck() throws {
        let modulesFolder = Corpus.packageRoot.appendingPathComponent(".build/debug/Modules")
        guard FileManager.default.fileExists(atPath: modulesFolder.appendingPathComponent("CDStoreSwiftData.swiftmodule").path) else {
            Issue.record("skipped: no CDStoreSwiftData module at \(modulesFolder.path) (build with `swift build --build-tests` first)")
            return
        }
        var snippets: [Snippet] = []
        for module in Self.modules {
            let folder = Corpus.packageRoot.appendingPathComponent("Sources/" + module)
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                snippets += Self.snippets(in: text, file: "Sources/\(module)/\(file)")
            }
        }
        let articles = Corpus.packageRoot.appendingPathComponent("Sources/CDStore/CDStore.docc")
        for article in try FileManager.default.contentsOfDirectory(atPath: articles.path).filter({ $0.hasSuffix(".md") }).sorted() {
            let text = try String(contentsOf: articles.appendingPathComponent(article), encoding: .utf8)
            snippets += Self.articleSnippets(in: text, file: "Sources/CDStore/CDStore.docc/\(article)")
        }
        #expect(snippets.count >= 55, "only \(snippets.count) examples found")
        var source = "import CDStore\nimport CDStoreSwiftData\nimport Foundation\nfunc assumed<T>() -> T { fatalError() }\n"
        for (index, snippet) in snippets.enumerated() {
            source += """

                func example\(index)() async throws {
                \(Self.assumedValues)
                do {
                #sourceLocation(file: "\(snippet.file)", line: \(snippet.line))
                \(snippet.code.joined(separator: "\n"))
                #sourceLocation()
                }
                }

                """
        }
        let file = try temporaryDirectory().appendingPathComponent("Examples.swift")
        try Data(source.utf8).write(to: file)
        let result = try ProcessRunner.run("/usr/bin/env", ["swiftc", "-typecheck", "-suppress-warnings", "-swift-version", "5",
                                                            "-I", modulesFolder.path] + CodableRecordsTests.clangModuleFlags() + [file.path])
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Sources/") && $0.contains("error:") }
        #expect(result.status == 0, "doc comment examples that do not compile:\n\(errors.joined(separator: "\n"))\n\(result.stderr.prefix(errors.isEmpty ? 3000 : 0))")
    }

    /// The examples in `text` whose doc comment belongs to a public declaration (the first line after the comment
    /// that is not an attribute).
    static func snippets(in text: String, file: String) -> [Snippet] {
        let lines = text.components(separatedBy: "\n")
        var found: [Snippet] = []
        var index = 0
        while index < lines.count {
            guard Self.comment(lines[index]) == "```swift" else {
                index += 1
                continue
            }
            let first = index + 1
            var code: [String] = []
            index += 1
            while index < lines.count, let line = Self.comment(lines[index]), !line.hasPrefix("```") {
                code.append(line)
                index += 1
            }
            var next = index + 1
            while next < lines.count, Self.comment(lines[next]) != nil || lines[next].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
                next += 1
            }
            let declaration = next < lines.count ? lines[next] : ""
            let isPublic = declaration.range(of: #"\b(public|open)\s"#, options: .regularExpression) != nil
            if isPublic && !code.contains(where: { $0.contains("@Model") }) {
                let local = code.filter { !$0.hasPrefix("import ") }
                    .map { $0.replacingOccurrences(of: #"^(\s*)public "#, with: "$1", options: .regularExpression) }
                found.append(Snippet(file: file, line: first + 1, code: local))
            }
            index += 1
        }
        return found
    }

    /// The examples of a DocC article: its ```` ```swift ```` blocks, but for a package manifest's.
    static func articleSnippets(in text: String, file: String) -> [Snippet] {
        let lines = text.components(separatedBy: "\n")
        var found: [Snippet] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index] == "```swift" else { continue }
            let first = index + 1
            var code: [String] = []
            index += 1
            while index < lines.count, lines[index] != "```" {
                code.append(lines[index])
                index += 1
            }
            if code.first != "// Package.swift" {
                found.append(Snippet(file: file, line: first + 1, code: code.filter { !$0.hasPrefix("import ") }))
            }
        }
        return found
    }

    /// The text of a `///` line after the marker and one space, or nil for any other line.
    private static func comment(_ line: String) -> String? {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("///") else { return nil }
        let rest = trimmed.dropFirst(3)
        return String(rest.first == " " ? rest.dropFirst() : rest)
    }

    @Test func anExampleOnAnInternalDeclarationIsNotChecked() {
        let text = """
            /// ```swift
            /// let a = 1
            /// ```
            @discardableResult
            public func used() -> Int { 1 }
            /// ```swift
            /// nothing(here)
            /// ```
            func helper() {}
            """
        let found = Self.snippets(in: text, file: "F.swift")
        #expect(found.map(\.line) == [2])
        #expect(found.map(\.code) == [["let a = 1"]])
    }
}
