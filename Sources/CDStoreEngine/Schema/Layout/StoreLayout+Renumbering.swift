import CDStoreJSON
import CDStoreModel

extension StoreLayout {
    /// The layout with the entity numbers a store's `Z_PRIMARYKEY` table assigns (by entity name).
    ///
    /// Core Data keeps a store's entity numbers across migrations (coredata-format.md §5.3), so a migrated store
    /// may number its entities differently from a new one; rows must be read with the store's numbers. Nil when
    /// the numbers already agree. Throws when a sub-tree's numbers are no longer consecutive, which range filters
    /// (`Z_ENT BETWEEN n AND m`) need.
    package func renumbered(byStoreNumbers numbers: [String: Int]) throws -> StoreLayout? {
        // A migration can leave an old entity name in Z_PRIMARYKEY (a renamed entity keeps its row); then the
        // numbers cannot be matched by name and the model's own numbering is the best guess.
        guard entities.allSatisfy({ numbers[$0.name] != nil }),
              entities.contains(where: { numbers[$0.name] != $0.number }) else { return nil }
        var renumbered = self
        let byOld = Dictionary(uniqueKeysWithValues: entities.map { ($0.number, $0) })
        for index in renumbered.entities.indices {
            let entity = entities[index]
            let number = numbers[entity.name]!
            renumbered.entities[index].number = number
            renumbered.entities[index].superNumber = byOld[entity.superNumber].flatMap { numbers[$0.name] } ?? 0
            let subtree = entities.filter { entity.subtreeNumbers.contains($0.number) }.compactMap { numbers[$0.name] }.sorted()
            guard let low = subtree.first, let high = subtree.last, high - low + 1 == subtree.count, low == number else {
                throw StoreError(.modelMismatch, "the store numbers the sub-entities of \(entity.name) out of order "
                                 + "(a migrated store cdstore cannot read yet)", entity: entity.name)
            }
            renumbered.entities[index].subtreeMax = high
        }
        return renumbered
    }
}
