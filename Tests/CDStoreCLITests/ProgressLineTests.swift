import Testing
@testable import CDStoreCLI

/// The progress line of long inserts, imports and exports: records, rate, and — when the input's size is known —
/// percent and time left.
@Suite("Progress line")
struct ProgressLineTests {
    @Test func knownSizeShowsPercentAndTimeLeft() {
        #expect(Progress.line(label: "inserting", done: 120_000, unit: "records", fraction: 0.4, elapsed: 2.5)
                == "inserting 120000 records, 48000/s, 40%, 4 s left")
    }

    @Test func unknownSizeShowsCountAndRate() {
        #expect(Progress.line(label: "importing", done: 5000, unit: "records", fraction: nil, elapsed: 0.5)
                == "importing 5000 records, 10000/s")
    }

    @Test func noRateBeforeAnyTimeHasPassedAndNoTimeLeftWhenDone() {
        #expect(Progress.line(label: "exporting", done: 10, unit: "objects", fraction: 1, elapsed: 0) == "exporting 10 objects, 100%")
    }
}
