// swift-tools-version:6.0
import PackageDescription

// An app-like package that uses cdstore's two plugins: CDStoreSeedPlugin builds Library.sqlite from
// Sources/SeededApp/Library.seed at build time and bundles it (Bundle.module), and the records in
// Sources/SeededApp/Records come from `swift package cdstore-generate`. `make plugins-test` in the root builds it, runs
// it and verifies the bundled store.
let package = Package(
    name: "SeededApp",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "cdstore", path: "../..")],
    targets: [
        .executableTarget(
            name: "seeded-app", dependencies: [.product(name: "CDStore", package: "cdstore")],
            path: "Sources/SeededApp",
            plugins: [.plugin(name: "CDStoreSeedPlugin", package: "cdstore")]),
    ]
)
