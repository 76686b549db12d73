import CDStoreTestSupport
import Foundation
import Testing

/// The library's messages speak of its own API, never of the command line's flags (the CLI adds those).
@Suite struct LibraryVocabularyTests {
    @Test func noFlagInLibraryStrings() throws {
        var found: [String] = []
        for target in ["CDStoreJSON", "CDStoreModel", "CDStorePredicate", "CDStoreEngine", "CDStoreIO", "CDStore",
                       "CDStoreSwiftSource", "CDStoreSwiftData"] {
            let folder = Corpus.packageRoot.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//") else { continue }
                    // Only what is inside string literals.
                    let literals = code.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                        .filter { $0.offset % 2 == 1 }.map(\.element)
                    if literals.contains(where: { $0.range(of: #"(^|[ (])--[a-z]"#, options: .regularExpression) != nil }) {
                        found.append("\(target)/\(file):\(number + 1): \(code)")
                    }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
