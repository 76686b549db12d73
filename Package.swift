// swift-tools-version:6.0
import PackageDescription

// Layers, lowest first. A target may import only the ones above it in this list:
//   CDStoreJSON      — the one JSON reader: streaming bytes, values with lines and columns (no dependencies)
//   CDStoreModel     — load, validate and hash managed object models (no SQLite)
//   CDStorePredicate — parse NSPredicate format strings into an AST (no SQLite)
//   CDStoreSQLite    — Core Data's SQLite layout, SQL generation, reading and writing stores
//   CDStoreIO        — reading JSON, NDJSON, CSV and graph documents as records; exporting graphs
//   CDStore          — the Swift library: one import, transactions, typed objects, Codable records, criteria
//   CDStoreCLI       — commands, output formats, the REPL
let package = Package(
    name: "cdstore",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "cdstore", targets: ["cdstore"]),
        .library(name: "CDStoreJSON", targets: ["CDStoreJSON"]),
        .library(name: "CDStoreModel", targets: ["CDStoreModel"]),
        .library(name: "CDStorePredicate", targets: ["CDStorePredicate"]),
        .library(name: "CDStoreSQLite", targets: ["CDStoreSQLite"]),
        // The record readers, for the fuzz targets in Fuzz/ (a separate package) and for tools.
        .library(name: "CDStoreIO", targets: ["CDStoreIO"]),
        // What apps and scripts import: `import CDStore`.
        .library(name: "CDStore", targets: ["CDStore"]),
        .library(name: "CDStoreCLI", targets: ["CDStoreCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
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
        .target(name: "CDStoreJSON"),
        .target(
            name: "CDStoreModel",
            dependencies: [
                "CDStoreJSON", "CZlib", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]),
        .target(name: "CDStorePredicate"),
        .target(
            name: "CDStoreSQLite",
            dependencies: [
                "CDStoreJSON", "CDStoreModel", "CDStorePredicate",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(name: "CDStoreIO", dependencies: ["CDStoreJSON", "CDStoreSQLite"]),
        .target(name: "CDStore", dependencies: ["CDStoreJSON", "CDStoreModel", "CDStorePredicate", "CDStoreSQLite", "CDStoreIO"]),
        .target(
            name: "CDStoreCLI",
            dependencies: [
                "CDStoreModel", "CDStorePredicate", "CDStoreSQLite", "CDStoreIO", "CReadline", "CReadlineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "cdstore", dependencies: ["CDStoreCLI"]),
        .target(
            name: "CDStoreTestSupport",
            dependencies: ["CDStoreModel", "CDStoreSQLite"]),
        .testTarget(name: "CDStoreJSONTests", dependencies: ["CDStoreJSON"]),
        .testTarget(name: "CDStoreModelTests", dependencies: ["CDStoreModel", "CDStoreTestSupport"]),
        .testTarget(name: "CDStorePredicateTests", dependencies: ["CDStorePredicate", "CDStoreTestSupport"]),
        .testTarget(
            name: "CDStoreSQLiteTests",
            dependencies: ["CDStoreSQLite", "CDStoreTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "CDStoreTests", dependencies: ["CDStore", "CDStoreTestSupport"]),
        .testTarget(name: "CDStoreCLITests", dependencies: ["CDStoreCLI", "CDStoreIO", "CDStoreTestSupport"]),
    ]
)
