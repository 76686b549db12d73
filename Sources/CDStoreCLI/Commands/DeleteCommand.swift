import ArgumentParser
import CDStore

/// `cdstore delete ENTITY --where … | --all`.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the objects matching --where (or every object with --all).",
        discussion: """
        Refuses to run without --where or --all. Each relationship's delete rule applies, as in Core Data: \
        Nullify clears the inverse, Cascade deletes the related objects too (recursively), Deny refuses the \
        whole delete while the relationship holds objects, No Action leaves references dangling. Everything \
        is deleted in one transaction; prints how many objects were deleted, per entity when a cascade \
        reached others. --dry-run prints what would be deleted and changes nothing.

        Examples:
          cdstore delete Employee --where "age > 65"
          cdstore delete Company --where "name == 'Acme'" --dry-run
          cdstore delete Employee --all
        """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var filter: PredicateOptions

    @Flag(name: .long, help: "Delete every object of the entity (and its sub-entities).")
    var all = false

    @Flag(name: .customLong("exact-entity"), help: "Leave objects of sub-entities alone.")
    var exactEntity = false

    @Flag(name: .customLong("dry-run"), help: "Print what would be deleted, per entity, without deleting anything.")
    var dryRun = false

    @Argument(help: "The entity whose objects to delete.", completion: .custom(ShellCompletion.entities))
    var entity: String

    func validate() throws {
        if filter.predicate == nil && !all { throw ValidationError("say which objects: --where PREDICATE, or --all for every object") }
        if filter.predicate != nil && all { throw ValidationError("--where and --all cannot be used together") }
    }

    func run() throws {
        let criteria = try filter.criteria(includingSubentities: !exactEntity)
        // The library's call; a dry run only reads, so it takes no write lock.
        let result = try storeOptions.withStore(create: false) { store in
            let library = store
            return dryRun
                ? try library.read { ctx in try ctx.delete(entity, matching: criteria, dryRun: true) }
                : try library.write { ctx in try ctx.delete(entity, matching: criteria) }
        }
        let verb = dryRun ? "would delete" : "deleted"
        var line = "\(verb) \(result.total) \(result.total == 1 ? "object" : "objects")"
        if dryRun || result.byEntity.count > 1 {
            line += " (" + result.byEntity.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ")"
        }
        print(line)
    }
}
