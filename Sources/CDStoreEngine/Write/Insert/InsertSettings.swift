import CDStoreJSON
import Foundation
/// How the engine inserts: the library's `InsertOptions` with the key mapping read, and skipped records reported
/// as ``SkippedRecord``s.
package struct InsertSettings: Sendable {
    /// Merge a record into the existing object that has the same values for a uniqueness constraint (or for the
    /// mapping's identity attributes) instead of failing, like `NSMergeByPropertyObjectTrumpMergePolicy`.
    package var upsert: Bool
    /// How input keys map to properties (nil: input keys are property names).
    package var mapping: JSONMapping?
    /// Called now and then (every few thousand records, and once at the end) with how far the insert has got.
    package var progress: (@Sendable (InsertProgress) -> Void)?
    /// Keep going past records that cannot be stored, reporting each to ``onSkip``.
    package var skipInvalid: Bool
    /// Called with each record skipped under ``skipInvalid``.
    package var onSkip: (@Sendable (SkippedRecord) -> Void)?
    /// What to do with input keys that name no property.
    package var unknownKeys: UnknownKeyPolicy = .ignoredUnderMapping
    /// Called, in input order, with the ID of the object each stored record became.
    package var onInsert: (@Sendable (ObjectID) -> Void)?

    package init(upsert: Bool = false, mapping: JSONMapping? = nil,
                 progress: (@Sendable (InsertProgress) -> Void)? = nil,
                 skipInvalid: Bool = false, onSkip: (@Sendable (SkippedRecord) -> Void)? = nil,
                 unknownKeys: UnknownKeyPolicy = .ignoredUnderMapping, onInsert: (@Sendable (ObjectID) -> Void)? = nil) {
        self.upsert = upsert
        self.mapping = mapping
        self.progress = progress
        self.skipInvalid = skipInvalid
        self.onSkip = onSkip
        self.unknownKeys = unknownKeys
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

/// A record an insert with ``InsertSettings/skipInvalid`` left out, and why.
package struct SkippedRecord: Sendable {
    /// The record's number in the input (1-based).
    package var record: Int
    /// Its input line, when known.
    package var line: Int?
    /// Why it was left out, with the entity and attribute concerned (its own record and line left out).
    package var error: StoreError
}

/// What a bulk insert did.
public struct InsertSummary: Sendable, Equatable {
    /// Records stored.
    public var inserted: Int
    /// Records left out under `InsertOptions.skipInvalid`.
    public var skipped: Int
    /// Input keys that named no property and were ignored (`InsertOptions.unknownKeys`), per entity.
    public var ignoredKeys: [IgnoredKeys] = []

    package init(inserted: Int, skipped: Int, ignoredKeys: [IgnoredKeys] = []) {
        self.inserted = inserted
        self.skipped = skipped
        self.ignoredKeys = ignoredKeys
    }
}
