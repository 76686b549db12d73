import CDStoreJSON
import CDStoreModel
import CDStorePredicate
internal import GRDB

/// Compiles a predicate AST to an SQL condition over the entity's table (aliased `t`), checked against the
/// model before any SQL runs: unknown keys (with "did you mean"), values that do not fit the attribute's type,
/// invalid `MATCHES` patterns and constructs the SQLite store cannot run are errors here. Every value from
/// the predicate is a bound `?` parameter; the SQL text holds only table and column names from the layout.
///
/// ## Key paths
/// - An attribute is its column (`t.ZNAME = ?`, so indexes are used).
/// - A to-one chain (`department.manager.name`) is a correlated scalar subquery with `LEFT JOIN`s, NULL when
///   a related object is missing; a path ending at a to-one (`manager == nil`) is its foreign-key column.
/// - A path through a to-many (or many-to-many) relationship is a collection: `ANY`/`SOME` is `EXISTS (…)`,
///   `NONE` is `NOT EXISTS (…)`, `ALL` is `NOT EXISTS (… AND NOT cmp)`; a comparison without quantifier
///   means `ANY`, as in Core Data; `CONTAINS` and `IN` test membership; `@count @sum @avg @min @max` and
///   `SUBQUERY(…).@count` are correlated aggregate subqueries. Destination rows are restricted to the
///   destination entity's `Z_ENT` range when its table holds other entities.
/// - Core Data allows one to-many operation per query; cdstore allows any number.
///
/// ## NULL
/// As in Core Data's SQLite store a comparison with NULL is not true: `name != 'x'` does not match objects
/// whose name is nil, `name < 'x'` neither; only `== nil` and `!= nil` test for NULL; `x IN {…}` and
/// `CONTAINS` never match a nil element. `ALL` needs every element's comparison to be true.
/// `NOT` is two-valued, as `NSPredicate.evaluate(with:)` and cdstore's in-memory evaluator are: a comparison
/// with NULL counts as false before it is negated, so `NOT (name == 'x')` matches objects with a nil name
/// (SQL's own `NOT NULL` would be NULL and drop them).
struct PredicateCompiler {
    let model: ManagedObjectModel
    let layout: StoreLayout
    let entity: Entity
    let aliases: AliasGenerator
    /// SUBQUERY variables: the element operand and its scope.
    var bindings: [String: Operand] = [:]
    var scopes: [String: Scope] = [:]
    /// How deep compilation is in the predicate tree, shared by the copies made for subqueries.
    let nesting = CompileNesting()

    init(model: ManagedObjectModel, layout: StoreLayout, entity: Entity, aliases: AliasGenerator = AliasGenerator()) {
        self.model = model
        self.layout = layout
        self.entity = entity
        self.aliases = aliases
    }

    var resolver: KeyPathResolver { KeyPathResolver(model: model, layout: layout, aliases: aliases) }

    /// The fetched objects: the table aliased `t`.
    var root: Scope {
        Scope(alias: "t", entity: entity, layout: layout.entity(named: entity.name)
              ?? EntityLayout(name: entity.name, number: 0, superNumber: 0, subtreeMax: 0, rootName: entity.name, table: "",
                              isAbstract: false, attributeColumns: [:], toOnes: [:], toManys: [:]))
    }

    func compile(_ predicate: PredicateNode) throws -> SQLFragment {
        try nesting.enter(self)
        defer { nesting.leave() }
        return try compileNode(predicate)
    }

    private func compileNode(_ predicate: PredicateNode) throws -> SQLFragment {
        switch predicate {
        case .constant(let value):
            return SQLFragment(value ? "1" : "0")
        case .not(let inner):
            let compiled = try compile(inner)
            return SQLFragment("NOT IFNULL((\(compiled.sql)), 0)", compiled.arguments)
        case .and(let parts):
            return balanced(try parts.map { try parenthesized(compile($0)) }, separator: " AND ")
        case .or(let parts):
            return balanced(try parts.map { try parenthesized(compile($0)) }, separator: " OR ")
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    /// `a OR b OR c …` as SQLite reads it is a tree as deep as the chain is long, and SQLite refuses trees
    /// deeper than 1000 ("Expression tree is too large"): long chains are grouped in parentheses, 32 terms a
    /// group, so that 100,000 terms nest 4 deep.
    private func balanced(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        let group = 32
        guard parts.count > group else { return SQLFragment.join(parts, separator: separator) }
        let groups = stride(from: 0, to: parts.count, by: group).map { start in
            parenthesized(SQLFragment.join(Array(parts[start..<min(start + group, parts.count)]), separator: separator))
        }
        return balanced(groups, separator: separator)
    }

    private func parenthesized(_ fragment: SQLFragment) -> SQLFragment {
        SQLFragment("(\(fragment.sql))", fragment.arguments)
    }

    private func compile(_ comparison: PredicateComparison) throws -> SQLFragment {
        if comparison.op == .utiConformsTo || comparison.op == .utiEquals {
            throw unsupported("\(comparison.op.symbol) is a Spotlight operator; Core Data's SQLite store cannot run it")
        }
        let left = try operand(comparison.left)
        let right = try operand(comparison.right)
        if comparison.op == .matches, case .constant(.string(let pattern)) = right.kind {
            // An invalid pattern is an error now, not in the middle of a query.
            do {
                _ = try PredicateStringMatching.matches("", regex: pattern, options: comparison.options)
            } catch {
                throw invalid(error.message)
            }
        }
        switch comparison.modifier {
        case .direct:
            return try compare(left, comparison.op, right, comparison.options)
        case .any, .all, .none:
            guard let collection = left.collection else {
                throw invalid("\(comparison.modifier.rawValue.uppercased()) needs a key path through a to-many "
                              + "relationship on its left, got '\(PredicateFormatter.format(comparison.left))'")
            }
            return try quantified(collection, comparison.modifier) { element in
                try compare(element, comparison.op, right, comparison.options)
            }
        }
    }

    /// `EXISTS`, `NOT EXISTS` or "no element fails" over a collection.
    func quantified(_ collection: CollectionOperand, _ modifier: ComparisonModifier,
                    _ body: (Operand) throws -> SQLFragment) throws -> SQLFragment {
        let test = try body(collection.element)
        switch modifier {
        case .all:
            let clause = collection.source.clause([SQLFragment("NOT IFNULL((\(test.sql)), 0)", test.arguments)])
            return SQLFragment("NOT EXISTS (SELECT 1 \(clause.sql))", clause.arguments)
        case .none:
            let clause = collection.source.clause([test])
            return SQLFragment("NOT EXISTS (SELECT 1 \(clause.sql))", clause.arguments)
        case .any, .direct:
            let clause = collection.source.clause([test])
            return SQLFragment("EXISTS (SELECT 1 \(clause.sql))", clause.arguments)
        }
    }

    /// A comparison of two operands, either of which may be a collection.
    func compare(_ left: Operand, _ op: ComparisonOperator, _ right: Operand, _ options: ComparisonOptions) throws -> SQLFragment {
        if let collection = left.collection {
            if op == .contains {
                // `employees.name CONTAINS 'Ann'`: membership, never true for nil.
                if right.isNull { return SQLFragment("0") }
                if right.collection != nil { throw unsupported("CONTAINS cannot compare two to-many key paths") }
                return try quantified(collection, .any) { try compare($0, .equal, right, options) }
            }
            if right.collection != nil, op != .in {
                throw unsupported("\(op.symbol) cannot compare two to-many key paths; use ANY, ALL or SUBQUERY")
            }
            // A to-many key path compared directly means ANY, as in Core Data.
            return try quantified(collection, .any) { try compare($0, op, right, options) }
        }
        if let collection = right.collection {
            guard op == .in else {
                throw unsupported("a to-many key path on the right of \(op.symbol) is not supported; put it on the left "
                                  + "(with ANY, ALL or NONE) or use IN")
            }
            if left.isNull { return SQLFragment("0") }
            return try quantified(collection, .any) { try compare(left, .equal, $0, options) }
        }
        return try scalar(left, op, right, options)
    }

    /// A comparison of two single values (or a value and a constant list).
    private func scalar(_ left: Operand, _ op: ComparisonOperator, _ right: Operand, _ options: ComparisonOptions) throws -> SQLFragment {
        if left.objectEntity != nil || right.objectEntity != nil { return try objects(left, op, right) }
        var left = left, right = right
        try checkTypes(left, op, right)
        // A constant takes the type of the attribute it is compared with (dates, UUIDs, booleans, Binary).
        if let attribute = left.attribute { right = try right.typed(as: attribute, operator: op) }
        if let attribute = right.attribute { left = try left.typed(as: attribute, operator: op) }
        left = left.bound()
        right = right.bound()
        let folding = options.isStringFolding && !isNonString(left) && !isNonString(right)
        switch op {
        case .equal, .notEqual:
            let negate = op == .notEqual
            if left.isNull || right.isNull {
                let other = left.isNull ? right : left
                if other.isNull { return SQLFragment(negate ? "0" : "1") }
                return SQLFragment("\(other.sql) IS \(negate ? "NOT " : "")NULL", other.arguments)
            }
            try requireSingle(left, right, op)
            if folding { return stringFunction(negate ? "NOT " : "", .equal, options, left, right) }
            return binary(left, negate ? "<>" : "=", right)
        case .lessThan: return try ordered(left, "<", right, options, folding)
        case .lessThanOrEqual: return try ordered(left, "<=", right, options, folding)
        case .greaterThan: return try ordered(left, ">", right, options, folding)
        case .greaterThanOrEqual: return try ordered(left, ">=", right, options, folding)
        case .between:
            guard case .list(let bounds) = right.kind, bounds.count == 2 else {
                throw invalid("BETWEEN needs two bounds: x BETWEEN {low, high}")
            }
            if left.isNull || bounds.contains(where: \.isNull) { return SQLFragment("0") }
            if folding {
                let low = try ordered(left, ">=", bounds[0], options, true), high = try ordered(left, "<=", bounds[1], options, true)
                return SQLFragment("(\(low.sql)) AND (\(high.sql))", low.arguments + high.arguments)
            }
            return SQLFragment("\(left.sql) BETWEEN \(bounds[0].sql) AND \(bounds[1].sql)",
                               left.arguments + bounds[0].arguments + bounds[1].arguments)
        case .in:
            if case .list(let items) = right.kind { return membership(left, items, options, folding) }
            if left.isNull || right.isNull { return SQLFragment("0") }
            // `'abc' IN name`: the string form, "lhs is a substring of rhs".
            return stringFunction("", .contains, options, right, left)
        case .contains, .beginsWith, .endsWith, .like, .matches:
            if case .list(let items) = left.kind, op == .contains { return membership(right, items, options, folding) }
            if left.isNull || right.isNull { return SQLFragment("0") }
            try requireSingle(left, right, op)
            if let glob = StringGlob.fragment(op, options, left, right) { return glob }
            return stringFunction("", op, options, left, right)
        case .utiConformsTo, .utiEquals:
            throw unsupported("\(op.symbol) is a Spotlight operator; Core Data's SQLite store cannot run it")
        }
    }

    /// Relationship values: compared with nil (the foreign key IS NULL) or with objects of the same table.
    private func objects(_ left: Operand, _ op: ComparisonOperator, _ right: Operand) throws -> SQLFragment {
        let (object, other) = left.objectEntity != nil ? (left, right) : (right, left)
        let entity = object.objectEntity!
        if other.isNull, op == .equal || op == .notEqual {
            return SQLFragment("\(object.sql) IS \(op == .notEqual ? "NOT " : "")NULL", object.arguments)
        }
        if let otherEntity = other.objectEntity, op == .equal || op == .notEqual {
            guard layout.entity(named: otherEntity.name)?.table == layout.entity(named: entity.name)?.table else {
                return SQLFragment(op == .equal ? "0" : "(\(object.sql) IS NOT NULL AND \(other.sql) IS NOT NULL)",
                                   op == .equal ? [] : object.arguments + other.arguments)
            }
            return binary(left, op == .equal ? "=" : "<>", right)
        }
        // An object ID, as Core Data prints it: `department == "x-coredata://…/Department/p3"` (`%@` with --arg).
        if case .constant(.string(let text)) = other.kind, let id = ObjectID(uri: text), op == .equal || op == .notEqual {
            guard let target = layout.entity(named: id.entity), let declared = layout.entity(named: entity.name),
                  declared.subtreeNumbers.contains(target.number) else {
                throw invalid("\(id) is not an object of entity \(entity.name)")
            }
            return SQLFragment("\(object.sql) \(op == .equal ? "=" : "<>") ?", object.arguments + [id.primaryKey.databaseValue])
        }
        throw unsupported("a relationship (\(entity.name) object) can only be compared with nil (== nil, != nil), "
                          + "with another relationship, or with an object ID (x-coredata://…/Entity/p3)")
    }

    private func requireSingle(_ left: Operand, _ right: Operand, _ op: ComparisonOperator) throws {
        for side in [left, right] {
            if case .list = side.kind {
                throw invalid("a list cannot be used with \(op.symbol) (use IN, BETWEEN or CONTAINS)")
            }
        }
    }

    private func isNonString(_ operand: Operand) -> Bool {
        guard let attribute = operand.attribute else { return false }
        return attribute.type != .string && attribute.type != .uri
    }

    private func isStringLike(_ type: AttributeType) -> Bool { type == .string || type == .uri }

    /// Type mismatches the model can see before SQL runs.
    private func checkTypes(_ left: Operand, _ op: ComparisonOperator, _ right: Operand) throws {
        let hasList = [left, right].contains { if case .list = $0.kind { return true } else { return false } }
        if !hasList, op.isStringOperator || (op == .in && right.attribute != nil) {
            for side in [left, right] {
                if let attribute = side.attribute, !isStringLike(attribute.type) {
                    throw invalid("type mismatch: \(op.symbol) needs strings, but '\(attribute.name)' is "
                                  + attribute.type.rawValue)
                }
                if case .constant(let value) = side.kind, value.stringValue == nil {
                    throw invalid("type mismatch: \(op.symbol) needs a string, got \(PredicateFormatter.format(.constant(value)))")
                }
            }
        }
        try checkConstants(left, op, right)
        if let a = left.attribute, let b = right.attribute, isStringLike(a.type) != isStringLike(b.type) {
            let binary: Set<AttributeType> = [.binary, .uuid, .transformable]
            if !(binary.contains(a.type) && binary.contains(b.type)) {
                throw invalid("type mismatch: '\(a.name)' (\(a.type.rawValue)) cannot be compared with '\(b.name)' "
                              + "(\(b.type.rawValue))")
            }
        }
    }

    /// Two constants, which no attribute types: a string against a number, boolean or date is a type mismatch
    /// (`"2" <= 2`), as in the in-memory evaluator (CDStorePredicate's `Evaluator+Types.swift`), rather than
    /// SQLite's order of storage classes.
    private func checkConstants(_ left: Operand, _ op: ComparisonOperator, _ right: Operand) throws {
        func constants(_ operand: Operand) -> [PredicateValue]? {
            switch operand.kind {
            case .constant(.array(let items)): return items
            case .constant(let value): return [value]
            case .list(let items):
                var values: [PredicateValue] = []
                for item in items {
                    guard case .constant(let value) = item.kind else { return nil }
                    values.append(value)
                }
                return values
            default: return nil
            }
        }
        guard !op.isStringOperator, let ls = constants(left), let rs = constants(right) else { return }
        func isString(_ v: PredicateValue) -> Bool { if case .string = v { return true } else { return false } }
        func isTyped(_ v: PredicateValue) -> Bool {
            switch v {
            case .bool, .int, .double, .date: return true
            default: return false
            }
        }
        for l in ls {
            for r in rs where (isString(l) && isTyped(r)) || (isTyped(l) && isString(r)) {
                throw invalid("type mismatch: \(op.symbol) cannot compare \(PredicateFormatter.format(.constant(l))) "
                              + "with \(PredicateFormatter.format(.constant(r)))")
            }
        }
    }

    private func binary(_ left: Operand, _ op: String, _ right: Operand) -> SQLFragment {
        SQLFragment("\(left.sql) \(op) \(right.sql)", left.arguments + right.arguments)
    }

    private func ordered(_ left: Operand, _ op: String, _ right: Operand, _ options: ComparisonOptions,
                         _ folding: Bool) throws -> SQLFragment {
        if left.isNull || right.isNull { return SQLFragment("0") }
        try requireSingle(left, right, .lessThan)
        if folding {
            let l = SQLFragment("\(SQLFunctions.fold)(\(left.sql), \(options.rawValue))", left.arguments)
            let r = SQLFragment("\(SQLFunctions.fold)(\(right.sql), \(options.rawValue))", right.arguments)
            return SQLFragment("\(l.sql) \(op) \(r.sql)", l.arguments + r.arguments)
        }
        return binary(left, op, right)
    }

    private func membership(_ value: Operand, _ items: [Operand], _ options: ComparisonOptions, _ folding: Bool) -> SQLFragment {
        // Foundation's IN never matches nil, not even with a nil element in the list.
        let nonNull = items.filter { !$0.isNull }
        if nonNull.isEmpty || value.isNull { return SQLFragment("0") }
        if folding {
            return SQLFragment.join(nonNull.map { parenthesized(stringFunction("", .equal, options, value, $0)) },
                                    separator: " OR ")
        }
        return SQLFragment("\(value.sql) IN (\(nonNull.map(\.sql).joined(separator: ", ")))",
                           value.arguments + nonNull.flatMap(\.arguments))
    }

    /// String operators run through a registered function so that `[c]`, `[d]`, `LIKE` and `MATCHES` behave
    /// as Foundation's do (Unicode case and diacritic folding, whole-string ICU regular expressions), which
    /// SQLite's built-in `LIKE` (ASCII-only case folding, `%`/`_` wildcards) does not.
    func stringFunction(_ prefix: String, _ op: ComparisonOperator, _ options: ComparisonOptions,
                                _ left: Operand, _ right: Operand) -> SQLFragment {
        SQLFragment("\(prefix)\(SQLFunctions.stringCompare)('\(op.rawValue)', \(options.rawValue), \(left.sql), \(right.sql))",
                    left.arguments + right.arguments)
    }

    func unsupported(_ message: String) -> StoreError {
        StoreError(.invalidInput, message, entity: entity.name).about(.predicate)
    }

    func invalid(_ message: String) -> StoreError {
        StoreError(.invalidInput, message, entity: entity.name).about(.predicate)
    }
}

extension ComparisonOptions {
    /// Whether strings must be folded before comparing (`[c]`, `[d]`, `[n]`).
    var isStringFolding: Bool { !intersection([.caseInsensitive, .diacriticInsensitive, .normalized]).isEmpty }
}
