import CDStoreJSON
/// Records read one at a time: the input of a bulk insert, which the store consumes as they are parsed, so that
/// memory stays flat in the number of records.
///
/// Readers of NDJSON, CSV and JSON arrays conform to it; ``SequenceRecordSource`` adapts any `Sequence` of
/// records (an array built in code).
package protocol RecordSource {
    /// The next record, or nil at the end of the input. Throws for input that cannot be read; an error that
    /// conforms to ``SkippableRecordError`` spoils only one record, and reading may go on after it.
    mutating func next() throws -> InputRecord?

    /// How far reading has got, for progress displays.
    var position: InputPosition { get }
}

extension RecordSource {
    package var position: InputPosition { InputPosition(bytesRead: 0, totalBytes: nil) }
}

/// How much of an input has been read.
package struct InputPosition: Sendable, Equatable {
    /// Bytes consumed so far.
    package var bytesRead: Int64
    /// The size of the whole input, when it is known (a regular file); nil for pipes and standard input.
    package var totalBytes: Int64?

    package init(bytesRead: Int64, totalBytes: Int64?) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}

/// A record-reading error that concerns one record only — a malformed NDJSON line, a CSV row with the wrong
/// number of fields — so that an insert with `skipInvalid` reports it and continues with the next record.
package protocol SkippableRecordError: Error, CustomStringConvertible {
    /// Whether the reader can go on after this error (false when the rest of the input cannot be trusted, such as
    /// a syntax error inside a JSON array).
    var isSkippable: Bool { get }
    /// The input line of the record, when known.
    var line: Int? { get }
    /// What is wrong, without the place.
    var message: String { get }
}

/// The records of any `Sequence`, one at a time.
package struct SequenceRecordSource<Records: Sequence>: RecordSource where Records.Element == InputRecord {
    private var iterator: Records.Iterator

    package init(_ records: Records) { iterator = records.makeIterator() }

    package mutating func next() throws -> InputRecord? { iterator.next() }
}
