import CDStore

/// What `cdstore serve` serves with. The web server is linked into `cdstore-full` only, which passes it to
/// ``CommandLineRunner/run(_:program:)`` as part of its ``Program``.
public protocol StoreServing: Sendable {
    /// Whether `host` is a loopback address (the only kind served without a warning).
    func isLoopback(_ host: String) -> Bool

    /// Serves `store` on `host`:`port` until SIGINT or SIGTERM; `modelDiagram` draws the model page's SVG (nil
    /// without Graphviz); `onListening` gets the URL once the port is bound.
    func serve(_ store: CDStore, host: String, port: Int, modelDiagram: (@Sendable () throws -> [UInt8])?,
               settings: ServeSettings, onListening: @escaping @Sendable (String) -> Void) async throws
}

/// The options of `cdstore serve` that shape its pages.
public struct ServeSettings: Sendable {
    /// How long one query may run (`--time-limit`, milliseconds).
    public var timeLimitMilliseconds: Int
    /// The property that labels each entity's objects (`--label Entity=property`).
    public var labels: [String: String]
    /// Whether pages show committed changes live (`--watch`).
    public var watch: Bool

    /// Settings as the command line gives them.
    public init(timeLimitMilliseconds: Int = 1000, labels: [String: String] = [:], watch: Bool = false) {
        self.timeLimitMilliseconds = timeLimitMilliseconds
        self.labels = labels
        self.watch = watch
    }
}
