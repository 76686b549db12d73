import ArgumentParser
import CDStore

/// `cdstore update ENTITY --where … | --all --set KEY=VALUE …`.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Set attributes of the objects matching --where (or of every object with --all).",
        discussion: """
        Refuses to run without --where or --all. --set KEY=VALUE takes a value as insert does (42, 2024-05-01, \
        true, text); when VALUE is not a value of the attribute's type it is an expression of the predicate \
        language, computed per object: --set 'salary=salary * 1.05', --set 'age=age + 1', --set hiredAt=now(), \
        --set age=nil. For String and URI attributes VALUE is always text; KEY:=EXPRESSION is always an \
        expression: --set 'nickname:=nil', --set 'nickname:=lowercase:(firstName)'.

        Every new value is converted to its attribute's type and validated against the model (type, range, \
        length, regular expression, optionality, uniqueness constraints) before anything is written; a failure \
        names the object, the attribute and the value, and changes nothing. Everything happens in one \
        transaction; each changed object's Z_OPT is incremented, as Core Data does. Prints the number of \
        objects updated. --dry-run computes and validates the same way, prints the number of objects that \
        would be updated, and changes nothing. Relationships cannot be set by update.

        Examples:
          cdstore update Employee --where "department.name == 'Sales'" --set 'salary=salary * 1.05'
          cdstore update Employee --where "age == nil" --set age=30 --set isActive=false
          cdstore update Employee --all --set 'nickname:=lowercase:(firstName)' --dry-run
        """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var filter: PredicateOptions

    @Flag(name: .long, help: "Update every object of the entity (and its sub-entities).")
    var all = false

    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "A new value: KEY=VALUE (a value, or an expression when VALUE is not one) or KEY:=EXPRESSION (repeatable).",
        valueName: "key=value"), completion: .custom(ShellCompletion.keyPaths))
    var assignments: [String] = []

    @Flag(name: .customLong("exact-entity"), help: "Leave objects of sub-entities alone.")
    var exactEntity = false

    @Flag(name: .customLong("dry-run"), help: "Validate and print how many objects would be updated, without changing anything.")
    var dryRun = false

    @Argument(help: "The entity whose objects to update.", completion: .custom(ShellCompletion.entities))
    var entity: String

    func validate() throws {
        if filter.predicate == nil && !all { throw ValidationError("say which objects: --where PREDICATE, or --all for every object") }
        if filter.predicate != nil && all { throw ValidationError("--where and --all cannot be used together") }
        if assignments.isEmpty { throw ValidationError("say what to change: --set KEY=VALUE (repeatable)") }
    }

    func run() throws {
        let parsed = try assignments.map(UpdateAssignment.init(parsing:))
        let criteria = try filter.criteria(includingSubentities: !exactEntity)
        // The library's call; a dry run only reads, so it takes no write lock.
        let count = try storeOptions.withStore(create: false) { store in
            let library = store
            return dryRun
                ? try library.read { ctx in try ctx.update(entity, matching: criteria, assignments: parsed, dryRun: true) }
                : try library.write { ctx in try ctx.update(entity, matching: criteria, assignments: parsed) }
        }
        print("\(dryRun ? "would update" : "updated") \(count) \(count == 1 ? "object" : "objects")")
    }
}
