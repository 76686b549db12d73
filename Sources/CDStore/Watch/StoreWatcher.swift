import CDStoreModel
import CDStorePredicate
import CDStoreEngine
import Foundation

/// The objects other connections insert, update and delete in a store, as an asynchronous sequence of changes,
/// each seen shortly after it is committed (by the app, another process, another `CDStore`).
///
/// ```swift
/// let watcher = try StoreWatcher(path: "Notes.sqlite", entities: ["Note"], matching: .equal("pinned", true))
/// for try await change in watcher {
///     print(change.kind, change.objectID, change.updatedProperties ?? [])
/// }
/// ```
///
/// Making the watcher opens the store read-only and takes its starting point; changes committed after that are
/// handed out, oldest first. When the store keeps persistent history, they come from it, with the
/// ``StoreChange/transaction`` that made each (author, time); otherwise from comparing each watched entity's rows
/// with a snapshot of their keys, versions (`Z_OPT`) and per-column hashes (a few words per object, not the
/// objects). Between commits the watcher only asks SQLite, every poll interval, whether anything was committed
/// (`PRAGMA data_version`): that costs no read of the tables, and a change is seen within about that interval.
///
/// The watcher never writes to the store; the writer may checkpoint or vacuum it meanwhile. With criteria,
/// inserts and updates are handed out for objects that match them after the change, and deletes for objects
/// that matched before. Cancelling the task that iterates ends the sequence. Iterate a watcher once.
public final class StoreWatcher: AsyncSequence, @unchecked Sendable {
    /// The store file.
    let path: String
    /// Whether changes come from the store's persistent history (with their transactions).
    public let usesPersistentHistory: Bool
    /// How often the watcher asks whether anything was committed.
    let pollInterval: Duration

    private let lock = NSLock()
    private let tracker: ChangeTracker
    private let predicate: PredicateNode?
    private var factory: StoredObjectFactory
    /// With a predicate: the keys of the objects that match it, by entity, to tell which deletes to hand out.
    private var matching: [String: Set<Int64>] = [:]
    private var pending: [StoreChange] = []

    /// Starts watching the store at `path`.
    ///
    /// - Parameters:
    ///   - path: The store file.
    ///   - model: The model to read it with; nil for the store's own.
    ///   - entities: The entities whose objects to watch (with their sub-entities); empty for all.
    ///   - criteria: Only objects these criteria filter; their order, window and sub-entity choice do not apply
    ///     (`entities` says which entities are watched).
    ///   - pollInterval: How often to ask whether anything was committed (default 50 ms).
    /// - Throws: ``CDStoreError`` when the store cannot be opened, an entity is unknown or the criteria name an
    ///   unknown key path.
    public init(path: String, model: CDStore.Model? = nil, entities: [String] = [], matching criteria: Criteria = .all,
                pollInterval: Duration = .milliseconds(50)) throws {
        self.path = path
        self.pollInterval = pollInterval
        let loaded = try CDStoreError.wrapping { try model?.load() }
        let store = try CDStoreError.wrapping {
            try Store.open(at: path, loaded: loaded, options: Store.Options(readOnly: true, createIfMissing: false))
        }
        let tracker = try CDStoreError.wrapping { try ChangeTracker(store: store, entities: entities) }
        self.tracker = tracker
        usesPersistentHistory = tracker.usesHistory
        predicate = criteria.predicate
        factory = StoredObjectFactory(model: store.model)
        if let node = self.predicate {
            let concrete = Set(try CDStoreError.wrapping { try store.resolveEntities(entities) })
            for entity in store.model.entities where !entity.isAbstract && concrete.contains(entity.name) {
                var keys: Set<Int64> = []
                try CDStoreError.wrapping {
                    try store.forEach(ObjectFetchRequest(entity: entity.name, predicate: node, includesSubentities: false,
                                                         relationships: .none)) { keys.insert($0.primaryKey) }
                }
                matching[entity.name] = keys
            }
        }
    }

    /// Starts handing out changes.
    public func makeAsyncIterator() -> Iterator {
        Iterator(watcher: self)
    }

    /// Steps through the changes, waiting for the next commit when none is left.
    public struct Iterator: AsyncIteratorProtocol {
        let watcher: StoreWatcher

        /// The next change, waiting for it; nil once the iterating task is cancelled.
        public mutating func next() async throws -> StoreChange? {
            while !Task.isCancelled {
                if let change = watcher.nextPending() { return change }
                do {
                    try await Task.sleep(for: watcher.pollInterval)
                } catch {
                    return nil
                }
                try watcher.poll()
            }
            return nil
        }
    }

    private func nextPending() -> StoreChange? {
        lock.withLock { pending.isEmpty ? nil : pending.removeFirst() }
    }

    /// Asks for commits and turns the tracker's changes into ``StoreChange``s with their objects.
    private func poll() throws {
        try lock.withLock {
            let changes = try CDStoreError.wrapping { try tracker.poll() }
            guard !changes.isEmpty else { return }
            let store = tracker.store
            // The objects as they are now, fetched once per entity for every insert and update of the batch.
            var objects: [String: [Int64: StoredObject]] = [:]
            var keysByEntity: [String: [Int64]] = [:]
            for change in changes where change.type != .delete { keysByEntity[change.entity, default: []].append(change.primaryKey) }
            for (entity, keys) in keysByEntity {
                let request = ObjectFetchRequest(entity: entity, predicate: predicate, includesSubentities: false, primaryKeys: keys)
                for fetched in try CDStoreError.wrapping({ try store.fetch(request) }) {
                    objects[entity, default: [:]][fetched.primaryKey] = factory.make(fetched, storeUUID: store.metadata.uuid)
                }
            }
            for change in changes {
                let id = ObjectID(storeUUID: store.metadata.uuid, entity: change.entity, primaryKey: change.primaryKey)
                let kind: StoreChange.Kind
                switch change.type {
                case .insert: kind = .inserted
                case .delete: kind = .deleted
                default: kind = .updated
                }
                let object = objects[change.entity]?[change.primaryKey]
                if predicate != nil {
                    let matched = matching[change.entity]?.contains(change.primaryKey) ?? false
                    if kind == .deleted {
                        guard matched else { continue }
                        matching[change.entity]?.remove(change.primaryKey)
                    } else if object == nil {
                        // It no longer matches (or is already gone again).
                        matching[change.entity]?.remove(change.primaryKey)
                        continue
                    } else {
                        matching[change.entity, default: []].insert(change.primaryKey)
                    }
                } else if kind != .deleted && object == nil {
                    continue   // deleted again by a later commit of the same batch
                }
                pending.append(StoreChange(kind: kind, objectID: id, object: kind == .deleted ? nil : object,
                                           updatedProperties: kind == .updated ? change.updatedProperties : nil,
                                           transaction: change.transaction))
            }
        }
    }
}

extension Store {
    /// The concrete entities `names` stand for with their sub-entities; every concrete entity when empty.
    fileprivate func resolveEntities(_ names: [String]) throws -> [String] {
        guard !names.isEmpty else { return model.entities.filter { !$0.isAbstract }.map(\.name) }
        var found: [String] = []
        for name in names {
            let entity = try resolveEntity(name)
            found += model.subtree(of: entity).filter { !$0.isAbstract }.map(\.name)
        }
        return found
    }
}
