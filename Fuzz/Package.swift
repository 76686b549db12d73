// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for cdstore's parsers. Not part of the normal build: build it with
//   swift build -c debug --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
// (`make fuzz` / `make fuzz-ci` in the root Makefile do this). Each target is one parser; see Fuzz/README.md.
let fuzzerFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Sources/\(name)",
                      swiftSettings: fuzzerFlags)
}

let package = Package(
    name: "cdstore-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "cdstore", path: "..")],
    targets: [
        .target(name: "CFuzzDriver", path: "Sources/CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Sources/FuzzSupport"),
        .target(name: "FuzzBodies", dependencies: [
            .product(name: "CDStoreIO", package: "cdstore"), .product(name: "CDStoreJSON", package: "cdstore"),
            .product(name: "CDStoreModel", package: "cdstore"),
        ], path: "Sources/FuzzBodies"),
        fuzzer("fuzz-predicate", [.product(name: "CDStorePredicate", package: "cdstore")]),
        fuzzer("fuzz-xml-model", ["FuzzBodies", .product(name: "CDStoreModel", package: "cdstore")]),
        fuzzer("fuzz-json-model", ["FuzzBodies", .product(name: "CDStoreModel", package: "cdstore")]),
        fuzzer("fuzz-compiled-model", ["FuzzBodies", .product(name: "CDStoreModel", package: "cdstore")]),
        fuzzer("fuzz-swift-model", ["FuzzBodies", .product(name: "CDStoreModel", package: "cdstore")]),
        fuzzer("fuzz-plist", [.product(name: "CDStoreModel", package: "cdstore")]),
        fuzzer("fuzz-ndjson", ["FuzzBodies", .product(name: "CDStoreIO", package: "cdstore")]),
        fuzzer("fuzz-json-records", ["FuzzBodies", .product(name: "CDStoreIO", package: "cdstore")]),
        fuzzer("fuzz-csv", ["FuzzBodies", .product(name: "CDStoreIO", package: "cdstore")]),
    ]
)
