import CDStore
import CDStoreCLI
import CDStoreServer

/// `cdstore serve`'s server: CDStoreServer's ``BrowseServer``.
struct BrowseServing: StoreServing {
    func isLoopback(_ host: String) -> Bool {
        BrowseServer.isLoopback(host)
    }

    func serve(_ store: CDStore, host: String, port: Int, modelDiagram: (@Sendable () throws -> [UInt8])?,
               settings: ServeSettings, onListening: @escaping @Sendable (String) -> Void) async throws {
        let browse = BrowseSettings(timeLimit: .milliseconds(settings.timeLimitMilliseconds), labels: settings.labels,
                                    watch: settings.watch)
        try await BrowseServer(store: store, host: host, port: port, modelDiagram: modelDiagram, settings: browse)
            .run { url in onListening(url) }
    }
}
