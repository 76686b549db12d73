import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreEngine

extension CDStore {
    /// What a ``CDStore/read(_:)`` or ``CDStore/write(_:)`` closure works through: every call runs in the
    /// closure's transaction.
    ///
    /// A context is valid only inside its closure, on the closure's thread: calls made after the closure
    /// returned fail with ``CDStoreError/Code/misuse``.
    ///
    /// Core Data equivalent: an `NSManagedObjectContext` inside `performAndWait`.
    ///
    /// ## Topics
    ///
    /// ### Fetching
    /// - ``fetch(_:matching:)``
    /// - ``fetchOne(_:matching:)``
    /// - ``object(_:)``
    /// - ``count(_:matching:)``
    /// - ``cursor(_:matching:)``
    ///
    /// ### Records
    /// - ``fetch(_:from:matching:)``
    /// - ``insert(_:into:upsert:)-(T,_,_)``
    /// - ``insert(_:into:upsert:)-([T],_,_)``
    /// - ``insert(_:into:options:)``
    ///
    /// ### Writing
    /// - ``insert(_:_:upsert:)``
    /// - ``update(_:set:)``
    /// - ``update(_:matching:set:assignments:dryRun:)``
    /// - ``delete(_:)``
    /// - ``delete(_:matching:dryRun:)``
    ///
    /// ### Projections and exports
    /// - ``project(_:_:matching:groupBy:having:distinct:)``
    /// - ``forEachProjection(_:_:matching:groupBy:having:distinct:columns:_:)``
    /// - ``export(_:matching:format:header:namingEntity:progress:to:)``
    /// - ``exportGraph(as:entities:progress:to:)``
    /// - ``importGraph(from:progress:)``
    public final class Context {
        /// The connection the transaction runs on.
        let store: Store
        /// The store the context belongs to.
        public unowned let owner: CDStore
        /// Whether the context belongs to a write transaction.
        public let canWrite: Bool
        private(set) var isOpen = true

        init(store: Store, owner: CDStore, canWrite: Bool) {
            self.store = store
            self.owner = owner
            self.canWrite = canWrite
        }

        func close() { isOpen = false }

        /// The model of the store.
        public var model: ManagedObjectModel { store.model }

        /// Runs a call of the store layer, checking that the context is still in its transaction and converting
        /// errors.
        func perform<T>(writing: Bool = false, _ body: () throws -> T) throws -> T {
            guard isOpen else {
                throw CDStoreError(.misuse, "the context was used after its transaction ended: use it only inside "
                                   + "its read or write closure")
            }
            if writing && !canWrite {
                throw CDStoreError(.readOnly, "cannot write inside a read transaction: use write { ctx in … }")
            }
            return try CDStoreError.wrapping(body)
        }

        /// A predicate from a format and its arguments (nil for no format); its errors are about `input`.
        func predicate(_ format: String?, _ arguments: [any ObjectValueConvertible],
                       input: CDStoreError.Input = .predicate) throws -> PredicateNode? {
            guard let format else {
                guard arguments.isEmpty else {
                    var error = CDStoreError(.invalidPredicate, "arguments were given without a predicate format")
                    error.input = input
                    throw error
                }
                return nil
            }
            return try CDStoreError.parsingPredicate(format, input: input) {
                try PredicateParser.parse(format, arguments: arguments.map(\.formatArgument))
            }
        }
    }
}
