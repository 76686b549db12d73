/// A bound on how deep entity inheritance may go, the same for every model form.
///
/// A compiled model whose superentity chain is longer than ``ObjectPath/defaultDepthLimit`` is refused as a
/// damaged archive. XML and JSON models had no such bound, and the lookups that walk up the tree for every
/// property (validation, hashing, the store layout) made a 2,000-entity chain take minutes rather than fail: no
/// real model comes near 256 levels (the corpus's deepest is 4), so a deeper chain is refused when it is read, with
/// the entity named.
extension LoadedModel {
    /// Throws ``ModelError/Code/invalidValue`` naming the first entity whose chain of parents is longer than
    /// `limit`. Stops at a cycle (``ModelValidator`` reports those) and walks at most `limit + 1` parents per
    /// entity, so the check itself stays linear in the number of entities.
    package func checkInheritanceDepth(limit: Int = ObjectPath.defaultDepthLimit) throws {
        for entity in model.entities {
            var seen: Set<String> = [entity.name]
            var current = model.parent(of: entity)
            var depth = 0
            while let parent = current, seen.insert(parent.name).inserted {
                depth += 1
                if depth > limit {
                    throw ModelError(.invalidValue, "its chain of parent entities is longer than \(limit) entities",
                                     file: file.relativePath, entity: entity.name)
                }
                current = model.parent(of: parent)
            }
        }
    }
}
