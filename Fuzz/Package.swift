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
        // Each target's body is FuzzTargets in the main package (Sources/CDStoreFuzzing), which reaches the parsers
        // with the project's own access; the lower layers are not public products.
        fuzzer("fuzz-predicate", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-xml-model", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-json-model", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-compiled-model", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-swift-model", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-plist", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-ndjson", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-json-records", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-csv", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-xcmapping", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-cdm", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
        fuzzer("fuzz-pattern", [.product(name: "CDStoreFuzzing", package: "cdstore")]),
    ]
)
