import CDStore

/// What `cdstore serve` serves with. The web server is linked into `cdstore-full` only, which passes it to
/// ``CommandLineRunner/run(_:server:)``.
public protocol StoreServing: Sendable {
    /// Whether `host` is a loopback address (the only kind served without a warning).
    func isLoopback(_ host: String) -> Bool

    /// Serves `store` on `host`:`port` until SIGINT or SIGTERM; `onListening` gets the URL once the port is bound.
    func serve(_ store: CDStore, host: String, port: Int,
               onListening: @escaping @Sendable (String) -> Void) async throws
}
