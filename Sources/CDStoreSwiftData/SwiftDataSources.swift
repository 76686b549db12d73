import CDStore
import CDStoreSwiftSource

extension ModelFile.Readers {
    /// Every form ``ModelFile/Readers/standard`` reads, and SwiftData `@Model` sources: a `.swift` file or a folder
    /// of them, parsed, never compiled.
    ///
    /// The Swift source reader is a value a program passes, not something it installs, because its parser
    /// (swift-syntax) is large enough to slow the start of every program that links it: `import CDStore` alone
    /// reads every other model form, and a SwiftData path is then ``CDStoreError/Code/swiftDataUnavailable``.
    ///
    /// ```swift
    /// import CDStore
    /// import CDStoreSwiftData
    ///
    /// let models = try ModelFile(contentsOf: "App/Models", readers: .swiftData)
    /// ```
    public static let swiftData = ModelFile.Readers(swiftSources: SwiftModelReader.reader)
}
