extension KeyedArchive {
    /// An object as errors name it: its class and its index in `$objects`, e.g. "NSCompoundPredicate #12"
    /// ("object #12" when it has no class record).
    package func name(of index: Int) -> String {
        (className(index) ?? "object") + " #\(index)"
    }

    /// The one guard every recursive reader of an archive goes through: it keeps the objects on the current path
    /// (``ObjectPath``) and throws an ``ObjectPathError`` naming the object when one contains itself or the
    /// objects nest deeper than the limit — never a stack overflow, whatever the bytes say.
    ///
    /// A reader creates one walk per read and wraps each step into an object in ``visit(_:_:)``:
    ///
    /// ```swift
    /// func predicate(at index: Int) throws -> String {
    ///     try walk.visit(index) {
    ///         // read the fields of `index`, recursing into its subpredicates
    ///     }
    /// }
    /// ```
    ///
    /// Used by the compiled-model and model-cache decoder (entities, properties, fetch requests, predicates,
    /// expressions, constants, superentity chains, user info) and by ``propertyListObject(at:)``; a reader of
    /// another archived format (a mapping model, `.cdm`) should use it the same way. Relationships and their
    /// inverses point at each other in every archive, so the decoder reads an inverse one step and never walks
    /// that chain. A class, so that readers written as structs with
    /// non-mutating methods share one path.
    package final class Walk {
        /// The archive walked.
        package let archive: KeyedArchive
        private var path: ObjectPath

        /// A walk over `archive` that goes at most `depthLimit` objects deep, and enters objects at most
        /// `visitLimit` times (by default 65,536 more than four times the archive's objects: enough to read every
        /// object of any real archive several times, and a bound on archives that share objects exponentially).
        package init(_ archive: KeyedArchive, depthLimit: Int = ObjectPath.defaultDepthLimit, visitLimit: Int? = nil) {
            self.archive = archive
            self.path = ObjectPath(depthLimit: depthLimit,
                                   visitLimit: visitLimit ?? (1 << 16) + 4 * archive.objects.count)
        }

        /// How many objects the walk is inside of.
        package var depth: Int { path.depth }

        /// Runs `body` with the object at `index` on the path; throws ``ObjectPathError`` instead when the object
        /// is already on it or the path is full.
        package func visit<T>(_ index: Int, _ body: () throws -> T) throws -> T {
            try enter(index)
            defer { path.leave() }
            return try body()
        }

        /// Puts the object at `index` on the path, for walks that are loops rather than recursion (a chain of
        /// superentities); ``leave()`` takes it off again.
        package func enter(_ index: Int) throws(ObjectPathError) {
            let archive = self.archive
            try path.enter(index) { archive.name(of: $0) }
        }

        /// Takes the innermost object off the path.
        package func leave() {
            path.leave()
        }
    }
}
