import CDStoreModel
import CDStoreEngine

/// One difference between two model versions (`ManagedObjectModel.changes(to:)`).
public typealias ModelChange = CDStoreModel.ModelChange

extension ManagedObjectModel {
    /// What changed from this model to `destination`, one change each, matched as Core Data's inferred mapping
    /// matches entities and properties (by renaming identifier, then by name): added, removed and renamed entities
    /// and properties, type, optionality, storage, cardinality, ordering and inverse changes, constraints and
    /// fetch indexes. What `cdstore model diff` prints.
    public func changes(to destination: ManagedObjectModel) -> [ModelChange] {
        ModelDiff.changes(from: self, to: destination)
    }
}
