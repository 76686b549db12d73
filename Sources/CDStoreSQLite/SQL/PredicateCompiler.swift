import CDStoreModel
import CDStorePredicate
import GRDB

/// Compiles a predicate AST to an SQL condition over the entity's table (aliased `t`), against the model.
struct PredicateCompiler {
    let model: ManagedObjectModel
    let layout: StoreLayout
    let entity: Entity

    func compile(_ predicate: PredicateNode) throws -> SQLFragment {
        switch predicate {
        case .constant(let value): SQLFragment(value ? "1" : "0")
        }
    }
}
