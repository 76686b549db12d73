import CDStoreJSON
import CDStoreModel
import CDStorePredicate
internal import GRDB

extension RelationshipLoader {
    /// The included fetched properties of `entity` (its own and those it inherits) on the objects at `indices`:
    /// each runs its fetch request per object, with `$FETCH_SOURCE.<attribute>` bound to that object's value, as
    /// Core Data runs it when the property is first read. The value is the array of matching objects (as included
    /// relationships are: records, to be nested further), in key order, Core Data's being unordered.
    func attachFetchedProperties(to objects: inout [FetchedObject], at indices: [Int], of entity: Entity) throws {
        for property in (store.model.ancestors(of: entity).reversed() + [entity]).flatMap(\.fetchedProperties) {
            guard let included = includes[property.name] else { continue }
            func refuse(_ reason: String) -> StoreError {
                StoreError(.invalidInput, "fetched property '\(property.name)': \(reason)", entity: entity.name).about(.includes)
            }
            guard let destination = store.model.entity(named: property.fetchRequest.entity) else {
                throw refuse("its fetch request names entity '\(property.fetchRequest.entity)', which the model does not have")
            }
            var predicate: PredicateNode?
            if let text = property.fetchRequest.predicate {
                do {
                    predicate = try PredicateParser.parse(text)
                } catch {
                    throw refuse("its predicate \(text) does not parse: \(error)")
                }
            }
            let attributes = Set(store.model.attributes(of: entity).map(\.name))
            for index in indices {
                let source = objects[index]
                let bound: PredicateNode?
                do {
                    bound = try predicate?.substituting(variables: [:], object: "FETCH_SOURCE") { path throws(CDPredicateError) in
                        guard path.components.count == 1, case .key(let key) = path.components[0], attributes.contains(key) else {
                            let name = path.components.map(\.description).joined(separator: ".")
                            throw CDPredicateError(.unboundVariable, "$FETCH_SOURCE.\(name) is not an attribute of \(entity.name)")
                        }
                        return (source.values.first { $0.0 == key }?.1 ?? .null).predicateValue
                    }
                } catch {
                    throw refuse("\(error)")
                }
                let request = ObjectFetchRequest(entity: destination.name, predicate: bound,
                                                 relationships: output == .none ? .none : output, includes: included.paths)
                let records = try store.fetchObjects(request, db: db).map { $0.record(nameEntityUnless: destination.name) }
                objects[index].values.append((property.name, .array(records)))
            }
        }
    }
}
