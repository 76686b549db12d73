import CDStoreModel
import CDStoreSQLite
import Foundation

// What a program describing a store to someone else (an assistant over MCP, a script) needs beyond the rest of
// the API: the summary `cdstore info` prints, the model as cdstore's JSON model, and each entity's fetch indexes.

extension CDStore {
    /// A summary of a store as `cdstore info` gives it (``CDStore/path``, ``CDStore/storeUUID``,
    /// ``CDStore/hasPersistentHistory`` and the model's version identifiers are on the store and model).
    public struct Summary: Sendable {
        /// Core Data or SwiftData, CloudKit mirroring, persistent history, in words.
        public var kind: String
        /// SQLite's journal mode as the file records it: `wal`, `delete`, ….
        public var journalMode: String
        /// Where the model came from: `given`, `cdstoreCache` (the model cdstore keeps in the store),
        /// `coreDataCache` (`Z_MODELCACHE`) or `inferredFromTables`.
        public var modelSource: String
        /// Things worth knowing: warnings from opening, entity hashes that differ from the model's, external-data
        /// files found missing.
        public var warnings: [String]
        /// Every entity of the model, in the model's order, with its number of objects of exactly that entity
        /// (not of its sub-entities).
        public var objectCounts: [(entity: String, objects: Int)]
    }

    /// The store's summary, read in one transaction (one `COUNT` per entity).
    public func summary() throws -> Summary {
        let overview = try overview()
        return Summary(kind: overview.kind, journalMode: overview.journalMode, modelSource: overview.modelSource,
                       warnings: overview.warnings, objectCounts: overview.entities.map { ($0.name, $0.objects) })
    }
}

extension ManagedObjectModel {
    /// The model as cdstore's JSON model (`Schemas/README.md`): UTF-8, sorted keys, pretty-printed; loading it
    /// back gives the same hashes and store layout.
    public func jsonModelDocument() throws -> Data {
        try CDStoreError.wrapping { try JSONModelCodec.encode(self) }
    }
}

extension Entity {
    /// The entity's fetch indexes (Core Data's `NSFetchIndexDescription`): each index's name and its elements,
    /// most significant first, as a property name (nil for an expression) and whether it is ascending.
    public var fetchIndexList: [(name: String, elements: [(property: String?, ascending: Bool)])] {
        fetchIndexes.map { index in (index.name, index.elements.map { ($0.property, $0.isAscending) }) }
    }
}
