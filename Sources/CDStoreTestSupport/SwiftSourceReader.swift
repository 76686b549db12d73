import CDStoreModel

/// Runs `body` as a program without the Swift source reader would (one that links `CDStore` but not
/// `CDStoreSwiftData`): only the calling task sees no reader, so tests that install it run on beside.
package func withoutSwiftSourceReader<T>(_ body: () throws -> T) rethrows -> T {
    try SwiftSources.withoutReader(body)
}
