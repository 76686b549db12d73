import CDStoreSwiftSource

/// SwiftData sources wherever the library takes a model path: `CDStore(path:model:)` with a `.swift` file or a
/// folder of them, and migrations through a `SchemaMigrationPlan`'s versions.
///
/// The reader is installed, not built in, because its parser (swift-syntax) is large enough to slow the start of
/// every program that links it: `import CDStore` alone reads every other model format, and a SwiftData path is
/// then a ``CDStoreError/Code/swiftDataUnavailable`` error.
///
/// ```swift
/// import CDStore
/// import CDStoreSwiftData
///
/// SwiftDataSources.install()
/// let store = try CDStore(path: "Seed.store", model: "App/Models", options: [.create])
/// ```
public enum SwiftDataSources {
    /// Installs the Swift source reader for the whole process; call it once, before opening stores or loading
    /// models (calling it again changes nothing).
    public static func install() {
        SwiftModelReader.install()
    }
}
