import CDStoreTestSupport
import Foundation
import Testing

/// The programs the command-line tests run are linked as the shipped ones are (Package.swift, ADR 0014), in the
/// debug build `make test` makes as in the release build `make release-check` and the packages use: `cdstore` one
/// static executable, `cdstore-full` with SQLite, readline and the Swift runtime inside.
@Suite struct ShippedLinkingTests {
    /// `readelf`'s answer for the program; `arguments` pick what it prints.
    static func readelf(_ arguments: [String], _ program: String) throws -> String {
        let result = try ProcessRunner.run("readelf", ["--wide"] + arguments + [program])
        #expect(result.status == 0, "readelf \(arguments) \(program): \(result.stderr)")
        return result.stdout
    }

    /// The shared libraries the program names (`NEEDED` entries of its dynamic section).
    static func neededLibraries(_ program: String) throws -> [String] {
        try readelf(["--dynamic"], program).split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    #if os(Linux)
    static let linux = true
    #else
    static let linux = false
    #endif

    @Test(.enabled(if: linux, "Package.swift links the programs statically on Linux only"))
    func theLeanProgramIsOneStaticExecutable() throws {
        let headers = try Self.readelf(["--program-headers"], CLIRunner.binary)
        #expect(headers.contains("LOAD"), "not an ELF program: \(CLIRunner.binary)")
        #expect(!headers.contains("INTERP"), "\(CLIRunner.binary) asks for a dynamic loader")
        #expect(try Self.neededLibraries(CLIRunner.binary).isEmpty)
    }

    @Test(.enabled(if: linux, "Package.swift links the programs statically on Linux only"))
    func theFullProgramCarriesSQLiteReadlineAndTheSwiftRuntime() throws {
        let needed = try Self.neededLibraries(FullProgramTests.full)
        #expect(!needed.isEmpty, "cdstore-full names no shared library: not the dynamic program it ships as")
        for library in ["libsqlite3", "libreadline", "libswiftCore", "libFoundation", "libFoundationEssentials"] {
            #expect(!needed.contains { $0.hasPrefix(library + ".so") }, "cdstore-full needs \(library) at run time: \(needed)")
        }
    }
}
