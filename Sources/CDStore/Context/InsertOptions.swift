import CDStoreEngine
import CDStoreJSON
import Foundation

/// Options of a bulk insert: upsert, skipping invalid records, key mapping, progress and per-object callbacks.
///
/// ```swift
/// var options = InsertOptions(skipInvalid: true, onSkip: { error in print("skipped", error) })
/// options.usesModelKeyMapping = true
/// let summary = try ctx.insert(.file(URL(fileURLWithPath: "people.json")), into: "Person", options: options)
/// ```
public struct InsertOptions: Sendable {
    /// Merge a record into the existing object that has the same values for a uniqueness constraint (or for the
    /// mapping's identity attributes) instead of failing, like `NSMergeByPropertyObjectTrumpMergePolicy`.
    public var upsert: Bool
    /// Called now and then (every few thousand records, and once at the end) with how far the insert has got.
    public var progress: (@Sendable (InsertProgress) -> Void)?
    /// Keep going past records that cannot be stored: the valid ones are written (in the same one transaction)
    /// and each skipped record is reported to ``onSkip``. Without it, the first bad record stops the insert and
    /// nothing is written.
    public var skipInvalid: Bool
    /// Called with why each record was skipped under ``skipInvalid``: the error the insert would have stopped
    /// with, naming the record (``CDStoreError/record``), its line, and the entity and attribute concerned.
    public var onSkip: (@Sendable (CDStoreError) -> Void)?
    /// What to do with input keys that name no property (`InsertSummary.ignoredKeys` lists the ignored ones).
    public var unknownKeys: UnknownKeyPolicy = .ignoredUnderMapping
    /// Read input keys through the JSON mapping the model keeps in its user info (Groot's `JSONKeyPath`,
    /// MagicalRecord's `mappedKeyName`, identity attributes); by default keys are property names.
    public var usesModelKeyMapping = false
    /// A key-mapping file (`{"Entity": {"inputKey": "property", …}, …}`) that overrides the model's mapping; its
    /// `"files"` folders are relative to the folder of the records' file.
    public var keyMappingFile: URL?
    /// Called, in input order, with the ID of the object each stored record became (with ``upsert``, the
    /// object it merged into); nested objects are not reported.
    public var onInsert: (@Sendable (ObjectID) -> Void)?

    /// Creates insert options; the defaults insert plain records, stop at the first bad one and report nothing.
    public init(upsert: Bool = false, progress: (@Sendable (InsertProgress) -> Void)? = nil,
                skipInvalid: Bool = false, onSkip: (@Sendable (CDStoreError) -> Void)? = nil,
                onInsert: (@Sendable (ObjectID) -> Void)? = nil) {
        self.upsert = upsert
        self.progress = progress
        self.skipInvalid = skipInvalid
        self.onSkip = onSkip
        self.onInsert = onInsert
    }

    /// The engine's settings for these options, with their key mapping read: the model's (``usesModelKeyMapping``)
    /// overridden by the file's (``keyMappingFile``, whose `"files"` folders are relative to `baseDirectory`).
    func settings(_ model: ManagedObjectModel, baseDirectory: URL) throws -> InsertSettings {
        var mapping: JSONMapping?
        if usesModelKeyMapping || keyMappingFile != nil {
            var resolved = usesModelKeyMapping ? JSONMapping.fromModel(model) : JSONMapping()
            if let keyMappingFile {
                guard let data = FileManager.default.contents(atPath: keyMappingFile.path) else {
                    var error = CDStoreError(.invalidInput, "cannot read the key mapping \(keyMappingFile.path)")
                    error.input = .mapping
                    throw error
                }
                resolved = resolved.overridden(by: try JSONMapping.fromFile(data, model: model, baseDirectory: baseDirectory))
            }
            mapping = resolved.isEmpty ? nil : resolved
        }
        var reportSkipped: (@Sendable (SkippedRecord) -> Void)?
        if let onSkip {
            reportSkipped = { skipped in
                var error = CDStoreError(skipped.error)
                error.record = skipped.record
                error.line = skipped.line
                onSkip(error)
            }
        }
        return InsertSettings(upsert: upsert, mapping: mapping, progress: progress, skipInvalid: skipInvalid,
                              onSkip: reportSkipped,
                              unknownKeys: unknownKeys, onInsert: onInsert)
    }
}
