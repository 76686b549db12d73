import CDStoreJSON
import Foundation
/// Options of an insert.
public struct InsertOptions: Sendable {
    /// Merge a record into the existing object that has the same values for a uniqueness constraint (or for the
    /// mapping's identity attributes) instead of failing, like `NSMergeByPropertyObjectTrumpMergePolicy`.
    public var upsert: Bool
    /// How input keys map to properties (nil: input keys are property names).
    package var mapping: JSONMapping?
    /// Called now and then (every few thousand records, and once at the end) with how far the insert has got.
    public var progress: (@Sendable (InsertProgress) -> Void)?
    /// Keep going past records that cannot be stored: the valid ones are written (in the same one transaction)
    /// and each skipped record is reported to ``onSkip``. Without it, the first bad record stops the insert and
    /// nothing is written.
    public var skipInvalid: Bool
    /// Called with each record skipped under ``skipInvalid``.
    public var onSkip: (@Sendable (SkippedRecord) -> Void)?
    /// What to do with input keys that name no property (``InsertSummary/ignoredKeys`` lists the ignored ones).
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
                skipInvalid: Bool = false, onSkip: (@Sendable (SkippedRecord) -> Void)? = nil,
                onInsert: (@Sendable (ObjectID) -> Void)? = nil) {
        self.init(upsert: upsert, mapping: nil, progress: progress, skipInvalid: skipInvalid, onSkip: onSkip,
                  onInsert: onInsert)
    }

    /// Creates insert options that read input keys through `mapping`.
    package init(upsert: Bool = false, mapping: JSONMapping?,
                progress: (@Sendable (InsertProgress) -> Void)? = nil,
                skipInvalid: Bool = false, onSkip: (@Sendable (SkippedRecord) -> Void)? = nil,
                onInsert: (@Sendable (ObjectID) -> Void)? = nil) {
        self.upsert = upsert
        self.mapping = mapping
        self.progress = progress
        self.skipInvalid = skipInvalid
        self.onSkip = onSkip
        self.onInsert = onInsert
    }
}

/// How far a bulk insert has got.
public struct InsertProgress: Sendable, Equatable {
    /// Records read so far (stored or skipped).
    public var records: Int
    /// Where reading the input has got.
    package var input: InputPosition
    /// Whether this is the last report.
    public var isFinished: Bool

    /// How much of the input has been read, from 0 to 1, when its size is known (a file, not a pipe).
    public var fractionRead: Double? {
        input.totalBytes.map { total in total > 0 ? Double(input.bytesRead) / Double(total) : 1 }
    }
}

/// A record that an insert with ``InsertOptions/skipInvalid`` left out, and why.
public struct SkippedRecord: Sendable, Equatable, CustomStringConvertible {
    /// The record's number in the input (1-based).
    public var record: Int
    /// Its input line, when known.
    public var line: Int?
    /// Why it was left out, with the entity and attribute concerned.
    public var reason: String

    public var description: String {
        "record \(record)" + (line.map { " (line \($0))" } ?? "") + ": " + reason
    }
}

/// What a bulk insert did.
public struct InsertSummary: Sendable, Equatable {
    /// Records stored.
    public var inserted: Int
    /// Records left out under ``InsertOptions/skipInvalid``.
    public var skipped: Int
    /// Input keys that named no property and were ignored (``InsertOptions/unknownKeys``), per entity.
    public var ignoredKeys: [IgnoredKeys] = []

    package init(inserted: Int, skipped: Int, ignoredKeys: [IgnoredKeys] = []) {
        self.inserted = inserted
        self.skipped = skipped
        self.ignoredKeys = ignoredKeys
    }
}
