import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreCLI

/// The shell completion scripts, checked by bash itself: installed as `make install` installs them, sourced, and
/// asked for completions the way bash asks when Tab is pressed.
@Suite struct ShellCompletionTests {
    static let graphModel = Fixtures.root.appendingPathComponent("Graph.xcdatamodeld").path

    @Test func keyPathsFollowRelationships() throws {
        let model = try ModelLoader.load(Self.graphModel).model
        let employee = try #require(model.entity(named: "Employee"))
        func complete(_ word: String) -> [String] { ShellCompletion.keyPathCompletions(word, entity: employee, model: model) }
        #expect(complete("na") == ["name"])
        #expect(complete("department.") == ["department.budget", "department.company", "department.employees", "department.name"])
        #expect(complete("department.company.na") == ["department.company.name"])
        // Through a to-many, inside a list, a sort order and a predicate.
        #expect(complete("projects.ti") == ["projects.title"])
        #expect(complete("name,dep") == ["name,department"])
        #expect(complete("-sal") == ["-salary"])
        #expect(complete("age > 3 AND manager.lev") == ["age > 3 AND manager.level"])
        #expect(complete("nothing.x").isEmpty)
    }

    /// Runs the installed bash script's completion function on `words` (the last is the word being completed).
    static func bashComplete(_ words: [String], script: String) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]}-1))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _cdstore cdstore "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try ProcessRunner.run("/bin/bash", ["-c", program])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "no /bin/bash"))
    func bashCompletesCommandsEntitiesAndKeyPaths() throws {
        let folder = try temporaryDirectory()
        let prefix = folder.appendingPathComponent("prefix").path
        let install = try ProcessRunner.run(Corpus.packageRoot.appendingPathComponent("Scripts/install.sh").path,
                                            [CLIRunner.binary, prefix, "debug"], environment: ProcessInfo.processInfo.environment.merging(["MAN": "no"]) { $1 })
        #expect(install.status == 0, "\(install.stderr)")
        for file in ["bin/cdstore", "bin/cdstore-full", "share/bash-completion/completions/cdstore", "share/zsh/site-functions/_cdstore",
                     "share/fish/vendor_completions.d/cdstore.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) not installed")
        }
        let script = prefix + "/share/bash-completion/completions/cdstore"
        let registered = try ProcessRunner.run("/bin/bash", ["-c", "source '\(script)'; complete -p cdstore"])
        #expect(registered.stdout == "complete -o filenames -F _cdstore cdstore\n")

        let store = folder.appendingPathComponent("graph.sqlite").path
        let made = try CLIRunner.run(["insert", "Company", "name=Acme", "--store", store, "--model", Self.graphModel])
        #expect(made.status == 0, "\(made.stderr)")
        let cdstore = prefix + "/bin/cdstore"
        #expect(try Self.bashComplete([cdstore, "fe"], script: script) == ["fetch"])
        #expect(try Self.bashComplete([cdstore, "fetch", "--store", store, "Em"], script: script) == ["Employee"])
        #expect(try Self.bashComplete([cdstore, "count", "--model", Self.graphModel, "D"], script: script) == ["Department"])
        #expect(try Self.bashComplete([cdstore, "fetch", "--store", store, "Employee", "--where", "department.na"], script: script)
                == ["department.name"])
        #expect(try Self.bashComplete([cdstore, "fetch", "--store", store, "Employee", "--sort", "-sal"], script: script)
                == ["-salary"])
        #expect(try Self.bashComplete([cdstore, "project", "--store", store, "Employee", "--group-by", "manager.le"],
                                      script: script) == ["manager.level"])
        // SwiftData sources: the lean program hands the completion to cdstore-full.
        let sources = folder.appendingPathComponent("Note.swift").path
        try Data("@Model final class Note {\n    var title: String = \"\"\n}\n".utf8).write(to: URL(fileURLWithPath: sources))
        #expect(try Self.bashComplete([cdstore, "count", "--model", sources, "N"], script: script) == ["Note"])
        // A store that does not exist completes nothing, and is not created by trying.
        let missing = folder.appendingPathComponent("missing.sqlite").path
        #expect(try Self.bashComplete([cdstore, "fetch", "--store", missing, "E"], script: script).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
