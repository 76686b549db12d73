// swift-tools-version:6.0
import PackageDescription

// Layers, lowest first. A target may import only the ones above it in this list:
//   CDStoreJSON        — the one JSON reader: streaming bytes, values with lines and columns (no dependencies)
//   CDStorePredicate   — parse NSPredicate format strings into an AST (no dependencies)
//   CDStoreModel       — load, validate and hash managed object models (no SQLite)
//   CDStoreSwiftSource — SwiftData `@Model` sources read as a model (swift-syntax), beside CDStoreModel and reached
//                        only through the reader value a caller passes, so that programs that never read Swift
//                        sources do not link swift-syntax
//   CDStoreEngine      — Core Data's storage engine: the SQLite layout, SQL generation, reading and writing stores,
//                        persistent history, verification
//   CDStoreMigration   — migrating a store to another model version: inferred mappings, mapping models, the steps
//   CDStoreComparison  — comparing two stores object by object (`cdstore diff`)
//   CDStoreIO          — the record formats: reading JSON, NDJSON, CSV and graph documents as records, and writing
//                        rows straight from SQLite as JSON, NDJSON and CSV (the output encoders)
//   CDStore            — the library, `import CDStore`: its public API is the one front door
//   CDStoreSwiftData   — `import CDStoreSwiftData`: the Swift source reader as a public value
// Clients, built on the two products' public API only: `packageAccess: false` keeps `package` declarations out of
// their reach, and `Scripts/client-imports.sh` (in `make test`) refuses an import of a layer below CDStore
// (docs/decisions/0015-library-1.0.md):
//   CDStoreServer      — `cdstore serve`: a read-only web face on a store (Hummingbird)
//   CDStoreMCP         — `cdstore mcp`: the store for AI assistants over the Model Context Protocol (stdio JSON-RPC)
//   CDStoreCLI         — commands, output formats, the REPL
// Two programs run the CLI: `cdstore`, lean, and `cdstore-full`, which also links the web server and the Swift
// source reader; `cdstore` hands the commands that need them over before they run (ADR 0014, ADR 0015).
// The debug programs link the Swift runtime and Foundation statically as the release ones do, but their objects are
// compiled against the toolchain's shared Foundation, whose modules do not name the static libraries under it (ICU,
// CoreFoundation, Synchronization) as the static modules a `--static-swift-stdlib` build compiles against do. So a
// debug link names them, in one group because they refer to each other.
let staticFoundationInDebug: [String] = ["--start-group"]
    + ["Foundation", "FoundationInternationalization", "FoundationEssentials", "_FoundationICU", "_FoundationCShims",
       "_FoundationCollections", "CoreFoundation", "swiftSynchronization", "swiftCore", "swift_Concurrency",
       "swiftDispatch", "dispatch", "BlocksRuntime", "stdc++", "m"].map { "-l" + $0 }
    + ["--end-group"]
let staticFoundationLinkInDebug = LinkerSetting.unsafeFlags(
    staticFoundationInDebug.flatMap { ["-Xlinker", $0] }, .when(platforms: [.linux], configuration: .debug))

let package = Package(
    name: "cdstore",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "cdstore", targets: ["cdstore"]),
        .executable(name: "cdstore-full", targets: ["cdstore-full"]),
        // What apps and scripts import: `import CDStore`.
        .library(name: "CDStore", targets: ["CDStore"]),
        // SwiftData sources as models: `import CDStoreSwiftData` (brings swift-syntax).
        .library(name: "CDStoreSwiftData", targets: ["CDStoreSwiftData"]),
        // For app packages: seed stores built from a target's `NAME.seed` folders at build time, and code from a model
        // (`swift package cdstore-generate`); both run the `cdstore` program.
        .plugin(name: "CDStoreSeedPlugin", targets: ["CDStoreSeedPlugin"]),
        .plugin(name: "CDStoreGeneratePlugin", targets: ["CDStoreGeneratePlugin"]),
        // What the libFuzzer targets in Fuzz/ (a package of their own) run: the parsers of untrusted input.
        .library(name: "CDStoreFuzzing", targets: ["CDStoreFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The parser only (no macros): SwiftData `@Model` sources are read as a model, never compiled.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        // zlib for the raw-DEFLATE model cache Core Data keeps in stores (Z_MODELCACHE).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // GNU readline for the REPL's line editing, history and completion.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline", providers: [.apt(["libreadline-dev"])]),
        // The REPL's line reading that C callbacks need state for: Ctrl-C abandoning a line, SIGINT to a pipe.
        .target(name: "CReadlineSupport", dependencies: ["CReadline"]),
        // The version and commit `cdstore --version` prints, written into the built program (Scripts/stamp-version.py).
        .target(name: "CBuildStamp"),
        .target(name: "CDStoreJSON"),
        .target(
            name: "CDStoreModel",
            dependencies: [
                "CDStoreJSON", "CDStorePredicate", "CZlib",
            ]),
        // SwiftData `@Model` sources read as a model (swift-syntax): kept out of CDStoreModel so that programs that
        // never read Swift sources do not link swift-syntax.
        .target(
            name: "CDStoreSwiftSource",
            dependencies: [
                "CDStoreModel",
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]),
        .target(name: "CDStorePredicate"),
        .target(
            name: "CDStoreEngine",
            dependencies: [
                "CDStoreJSON", "CDStoreModel", "CDStorePredicate",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(
            name: "CDStoreMigration",
            dependencies: [
                "CDStoreJSON", "CDStoreModel", "CDStorePredicate", "CDStoreEngine",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(
            name: "CDStoreComparison",
            dependencies: ["CDStoreModel", "CDStoreEngine", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "CDStoreIO",
            dependencies: ["CDStoreJSON", "CDStoreModel", "CDStoreEngine", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "CDStore",
            dependencies: [
                "CDStoreJSON", "CDStoreModel", "CDStorePredicate", "CDStoreEngine", "CDStoreMigration",
                "CDStoreComparison", "CDStoreIO",
            ]),
        .target(name: "CDStoreSwiftData", dependencies: ["CDStore", "CDStoreModel", "CDStoreSwiftSource"]),
        .target(
            name: "CDStoreServer",
            dependencies: [
                "CDStore", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
            ],
            packageAccess: false),
        .target(name: "CDStoreMCP", dependencies: ["CDStore"], packageAccess: false),
        .target(
            name: "CDStoreCLI",
            dependencies: [
                "CDStore", "CDStoreMCP", "CReadline", "CReadlineSupport", "CBuildStamp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            packageAccess: false),
        .target(
            name: "CDStoreFuzzing",
            dependencies: ["CDStoreJSON", "CDStoreModel", "CDStorePredicate", "CDStoreEngine", "CDStoreIO", "CDStoreSwiftSource"]),
        .executableTarget(
            name: "cdstore", dependencies: ["CDStoreCLI"],
            packageAccess: false,
            // On Linux it links everything statically, glibc, SQLite, zlib and readline included: no dynamic loader
            // binding symbols at every start, and no relocation of the program's data (ADR 0014). Debug builds link
            // it the same way, so the program the tests run is linked as the shipped one is (ADR 0015).
            // The linker warns that glibc's user and host lookups (getpwuid, getaddrinfo, dlopen), which Foundation
            // and readline hold, need glibc's shared libraries at run time; `cdstore` reaches them only to expand
            // `~user` in a completed path. readline's static library needs terminfo (tinfo) after it.
            // `cdstore-full`, which listens on the network, stays dynamic and position-independent.
            linkerSettings: [
                .unsafeFlags(["-static-executable"], .when(platforms: [.linux])),
                .linkedLibrary("tinfo", .when(platforms: [.linux])),
                staticFoundationLinkInDebug,
            ]),
        .executableTarget(
            name: "cdstore-full", dependencies: ["CDStore", "CDStoreCLI", "CDStoreServer", "CDStoreSwiftData"],
            packageAccess: false,
            // On Linux it links SQLite and readline from their static libraries, in debug builds too, so that the
            // program needs only what a minimal Debian has (glibc, libstdc++, zlib, terminfo) and the .deb depends on
            // nothing more; it stays dynamic and position-independent, with the Swift runtime and Foundation inside
            // (ADR 0014). The module maps' `-lsqlite3` and `-lreadline` come first on the link line, so a flag after
            // them cannot change what they find: a folder that `make static-libraries` (run by `make build`, `test`
            // and `release`) fills with the two static libraries alone, searched before the system's, can. Without it
            // (a plain `swift build` in a fresh clone) they are the shared ones.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-L", Context.packageDirectory + "/.build/static-libraries"],
                             .when(platforms: [.linux])),
                .linkedLibrary("tinfo", .when(platforms: [.linux])),
                staticFoundationLinkInDebug,
            ]),
        .plugin(name: "CDStoreSeedPlugin", capability: .buildTool(), dependencies: ["cdstore"]),
        .plugin(
            name: "CDStoreGeneratePlugin",
            capability: .command(
                intent: .custom(verb: "cdstore-generate",
                                description: "Write code from a model with cdstore model generate (e.g. --model M --language swiftdata -o DIR)"),
                permissions: [.writeToPackageDirectory(reason: "cdstore model generate writes the generated sources into the package")]),
            dependencies: ["cdstore"]),
        .target(
            name: "CDStoreTestSupport",
            dependencies: ["CDStoreModel", "CDStoreEngine"]),
        .testTarget(name: "CDStoreJSONTests", dependencies: ["CDStoreJSON"]),
        .testTarget(name: "CDStoreModelTests", dependencies: ["CDStoreModel", "CDStoreSwiftSource", "CDStoreTestSupport"]),
        .testTarget(name: "CDStorePredicateTests", dependencies: ["CDStorePredicate", "CDStoreTestSupport"]),
        .testTarget(
            name: "CDStoreEngineTests",
            dependencies: [
                "CDStoreJSON", "CDStoreEngine", "CDStoreMigration", "CDStoreComparison", "CDStoreIO", "CDStoreSwiftSource",
                "CDStoreTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "CDStoreTests", dependencies: ["CDStore", "CDStoreSwiftData", "CDStoreTestSupport"]),
        .testTarget(
            name: "CDStoreServerTests",
            dependencies: [
                "CDStoreServer", "CDStore", "CDStoreTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(name: "CDStoreFuzzingTests", dependencies: ["CDStoreFuzzing", "CDStoreTestSupport"]),
        .testTarget(name: "CDStoreMCPTests", dependencies: ["CDStoreMCP", "CDStore", "CDStoreTestSupport"]),
        .testTarget(
            name: "CDStoreCLITests",
            dependencies: [
                "CDStoreCLI", "CDStoreJSON", "CDStoreModel", "CDStorePredicate", "CDStoreEngine", "CDStoreMigration",
                "CDStoreIO", "CDStoreTestSupport",
            ]),
    ]
)
