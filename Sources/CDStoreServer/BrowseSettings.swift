import Foundation

/// How `cdstore serve` reads and shows the store: the options of the command line.
public struct BrowseSettings: Sendable {
    /// How long one query may run before it is stopped and the page says so (`--time-limit`).
    public var timeLimit: Duration
    /// The property whose value names an entity's objects in links, by entity (`--label Entity=property`); the
    /// other entities get one from their model (``labelRules``).
    public var labels: [String: String]
    /// Whether pages learn of committed changes (`--watch`): Server-Sent Events from `/_events`, and the one
    /// script that shows them.
    public var watch: Bool

    /// Settings; the defaults are a 1 s time limit, labels chosen from the model, no watching.
    public init(timeLimit: Duration = .seconds(1), labels: [String: String] = [:], watch: Bool = false) {
        self.timeLimit = timeLimit
        self.labels = labels
        self.watch = watch
    }

    /// The time limit in words: `1 s`, `250 ms`.
    var timeLimitWords: String {
        let milliseconds = Int(timeLimit.components.seconds) * 1000 + Int(timeLimit.components.attoseconds / 1_000_000_000_000_000)
        return milliseconds >= 1000 && milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
