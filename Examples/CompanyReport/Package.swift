// swift-tools-version:6.0
import PackageDescription

// A small program that uses cdstore as a library, as an app's tooling would: `make example` in the root builds
// and runs it on the root's Schemas/ folder.
let package = Package(
    name: "CompanyReport",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "cdstore", path: "../..")],
    targets: [
        .executableTarget(name: "company-report", dependencies: [.product(name: "CDStore", package: "cdstore")],
                          path: "Sources/CompanyReport"),
    ]
)
