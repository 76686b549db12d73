import CDStore
import Foundation

/// With `--watch`: the changes other connections commit, from one ``StoreWatcher``, handed to every page that
/// listens (`/_events`) as Server-Sent Events.
final class LiveChanges: @unchecked Sendable {
    /// Seconds between the comments that keep a quiet stream open and find closed ones.
    static let heartbeat: Duration = .seconds(5)

    private let lock = NSLock()
    private var listeners: [UUID: (filter: Filter, continuation: AsyncStream<String>.Continuation)] = [:]
    private var stopped = false
    private let watcher: StoreWatcher
    private let model: ManagedObjectModel
    private let rules: LabelRules
    private let store: CDStore
    private let timeLimit: Duration

    /// Which changes a page wants: those of an entity (and its sub-entities), or of one object.
    enum Filter: Sendable {
        case entity(String)
        case object(String)
        case all
    }

    /// Starts watching the store `store` reads, with its model; related objects' labels are read from `store`
    /// within `timeLimit`.
    init(store: CDStore, rules: LabelRules, timeLimit: Duration) throws {
        watcher = try StoreWatcher(path: store.path, model: .model(store.model))
        model = store.model
        self.rules = rules
        self.store = store
        self.timeLimit = timeLimit
    }

    /// Hands every change to the listeners until the task is cancelled or ``stop()`` is called.
    func run() async {
        let beat = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.heartbeat)
                self?.send(": still here\n\n", where: { _ in true })
            }
        }
        defer { beat.cancel() }
        do {
            for try await change in watcher {
                if isStopped { break }
                let event = self.event(change)
                let lineage = Set(lineage(of: change.objectID.entity))
                let href = ValueCells.href(change.objectID)
                send(event) { filter in
                    switch filter {
                    case .all: true
                    case .entity(let name): lineage.contains(name)
                    case .object(let wanted): wanted == href
                    }
                }
            }
        } catch {
            send("event: failed\ndata: " + jsonText(.string("watching stopped: \(error)")) + "\n\n", where: { _ in true })
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Ends every stream (the server is stopping: open streams would keep it waiting).
    func stop() {
        let ended = lock.withLock {
            stopped = true
            defer { listeners = [:] }
            return listeners.values.map(\.continuation)
        }
        for continuation in ended { continuation.finish() }
    }

    /// A stream of event texts for one page; it ends when the page goes away or the server stops.
    func listen(_ filter: Filter) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        let accepted = lock.withLock {
            guard !stopped else { return false }
            listeners[id] = (filter, continuation)
            return true
        }
        if !accepted { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) } }
        continuation.yield("retry: 2000\n: listening\n\n")
        return stream
    }

    private func send(_ text: String, where wanted: (Filter) -> Bool) {
        let targets = lock.withLock { listeners.values.filter { wanted($0.filter) }.map(\.continuation) }
        for continuation in targets { continuation.yield(text) }
    }

    private func lineage(of entityName: String) -> [String] {
        guard let entity = model.entity(named: entityName) else { return [entityName] }
        return [entity.name] + model.ancestors(of: entity).map(\.name)
    }

    /// `event: change` with the change as JSON: kind, entity, key, href, label, changed properties, each
    /// attribute's text as a table shows it, and each to-one relationship as its object's label (`values`) and
    /// address (`links`).
    func event(_ change: StoreChange) -> String {
        var values: [(String, ObjectValue)] = []
        var links: [(String, ObjectValue)] = []
        if let object = change.object {
            for (key, value) in zip(object.propertyNames, object.values) where !object.isRelationship(key) {
                values.append((key, .string(Self.plain(value))))
            }
            let related = object.propertyNames.filter(object.isRelationship).compactMap { key in object.related(key).map { (key, $0) } }
            let labels = labels(of: related.map(\.1))
            for (key, id) in related {
                values.append((key, .string(labels.linkText(id))))
                links.append((key, .string(ValueCells.href(id))))
            }
        }
        let fields: [(String, ObjectValue)] = [
            ("kind", .string(change.kind.rawValue)), ("entity", .string(change.objectID.entity)),
            ("pk", .integer(change.objectID.primaryKey)), ("id", .string(change.objectID.description)),
            ("href", .string(ValueCells.href(change.objectID))),
            ("label", change.object.flatMap(rules.label(of:)).map { .string($0) } ?? .null),
            ("updated", change.updatedProperties.map { .array($0.map { .string($0) }) } ?? .null),
            ("values", .dictionary(values)), ("links", .dictionary(links)),
        ]
        return "event: change\ndata: " + jsonText(.dictionary(fields)) + "\n\n"
    }

    /// The labels of the objects a change points to, read as a page reads them; when the read fails or passes the
    /// time limit the links read as keys, as they do for an entity without a label.
    private func labels(of ids: [ObjectID]) -> Labels {
        var labels = Labels()
        guard !ids.isEmpty else { return labels }
        do {
            try store.read { ctx in try ctx.withTimeLimit(timeLimit) { try labels.read(ids, rules: rules, in: ctx) } }
        } catch {
            return Labels()
        }
        return labels
    }

    /// A value as a table cell's text: cut like one, Binary as its size.
    static func plain(_ value: ObjectValue) -> String {
        switch value {
        case .null: "null"
        case .data(let data): ValueCells.byteCount(data.count)
        case .string(let text): text.count > ValueCells.tableTextLimit ? String(text.prefix(ValueCells.tableTextLimit)) + "…" : text
        case .array, .dictionary: String(jsonText(value).prefix(ValueCells.tableTextLimit))
        default: value.plainText
        }
    }
}
