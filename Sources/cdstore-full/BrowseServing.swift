import CDStore
import CDStoreCLI
import CDStoreServer

/// `cdstore serve`'s server: CDStoreServer's ``BrowseServer``.
struct BrowseServing: StoreServing {
    func isLoopback(_ host: String) -> Bool {
        BrowseServer.isLoopback(host)
    }

    func serve(_ store: CDStore, host: String, port: Int, modelDiagram: (@Sendable () throws -> [UInt8])?,
               onListening: @escaping @Sendable (String) -> Void) async throws {
        try await BrowseServer(store: store, host: host, port: port, modelDiagram: modelDiagram).run { url in onListening(url) }
    }
}
