import CDStoreModel
import CDStorePredicate

extension StoreLayout {
    /// The SQL condition `predicate` puts on the objects of `entity`, over its table aliased `t`, for a caller that
    /// selects the rows itself (a mapping model's source filter). Throws what a fetch with that predicate would.
    package func condition(_ predicate: PredicateNode, on entity: Entity, model: ManagedObjectModel) throws -> SQLFragment {
        try PredicateCompiler(model: model, layout: self, entity: entity).compile(predicate)
    }
}
