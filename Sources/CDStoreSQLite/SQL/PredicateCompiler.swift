import CDStoreModel
import CDStorePredicate
import GRDB

/// Compiles a predicate AST to an SQL condition over the entity's table (aliased `t`), checked against the
/// model before any SQL runs: unknown keys and values that do not fit the attribute's type are errors here.
///
/// NULL follows Core Data's SQLite store, which is SQL's: a comparison with a NULL column is not true, so
/// `name != 'x'` does not match objects whose name is nil; only `== nil` and `!= nil` test for NULL.
struct PredicateCompiler {
    let model: ManagedObjectModel
    let layout: StoreLayout
    let entity: Entity

    func compile(_ predicate: PredicateNode) throws -> SQLFragment {
        switch predicate {
        case .constant(let value):
            return SQLFragment(value ? "1" : "0")
        case .not(let inner):
            let compiled = try compile(inner)
            return SQLFragment("NOT (\(compiled.sql))", compiled.arguments)
        case .and(let parts):
            return SQLFragment.join(try parts.map { try parenthesized(compile($0)) }, separator: " AND ")
        case .or(let parts):
            return SQLFragment.join(try parts.map { try parenthesized(compile($0)) }, separator: " OR ")
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    private func parenthesized(_ fragment: SQLFragment) -> SQLFragment {
        SQLFragment("(\(fragment.sql))", fragment.arguments)
    }

    private func compile(_ comparison: PredicateComparison) throws -> SQLFragment {
        guard comparison.modifier == .direct else {
            throw unsupported("\(comparison.modifier.rawValue.uppercased()) needs a to-many key path, "
                              + "which is not supported yet")
        }
        var left = try operand(comparison.left)
        var right = try operand(comparison.right)
        // A constant takes the type of the attribute it is compared with (dates, UUIDs, booleans).
        if let attribute = left.attribute { right = try right.typed(as: attribute, operator: comparison.op) }
        if let attribute = right.attribute { left = try left.typed(as: attribute, operator: comparison.op) }
        left = left.bound()
        right = right.bound()
        let options = comparison.options
        switch comparison.op {
        case .equal, .notEqual:
            let negate = comparison.op == .notEqual
            if left.isNull || right.isNull {
                let other = left.isNull ? right : left
                if other.isNull { return SQLFragment(negate ? "0" : "1") }
                return SQLFragment("\(other.sql) IS \(negate ? "NOT " : "")NULL", other.arguments)
            }
            if options.isStringFolding {
                return stringFunction(negate ? "NOT " : "", .equal, options, left, right)
            }
            return binary(left, negate ? "<>" : "=", right)
        case .lessThan: return try ordered(left, "<", right, options)
        case .lessThanOrEqual: return try ordered(left, "<=", right, options)
        case .greaterThan: return try ordered(left, ">", right, options)
        case .greaterThanOrEqual: return try ordered(left, ">=", right, options)
        case .between:
            guard case .list(let bounds) = right.kind, bounds.count == 2 else {
                throw invalid("BETWEEN needs two bounds: x BETWEEN {low, high}")
            }
            return SQLFragment("\(left.sql) BETWEEN \(bounds[0].sql) AND \(bounds[1].sql)",
                               left.arguments + bounds[0].arguments + bounds[1].arguments)
        case .in:
            if case .list(let items) = right.kind {
                return membership(left, items, options)
            }
            // `'abc' IN name`: the string form, "lhs is a substring of rhs".
            return stringFunction("", .contains, options, right, left)
        case .contains, .beginsWith, .endsWith, .like, .matches:
            if case .list(let items) = left.kind, comparison.op == .contains {
                return membership(right, items, options)
            }
            return stringFunction("", comparison.op, options, left, right)
        case .utiConformsTo, .utiEquals:
            throw unsupported("\(comparison.op.symbol) is a Spotlight operator; Core Data's SQLite store cannot run it")
        }
    }

    private func binary(_ left: Operand, _ op: String, _ right: Operand) -> SQLFragment {
        SQLFragment("\(left.sql) \(op) \(right.sql)", left.arguments + right.arguments)
    }

    private func ordered(_ left: Operand, _ op: String, _ right: Operand, _ options: ComparisonOptions) throws -> SQLFragment {
        if left.isNull || right.isNull { return SQLFragment("0") }
        if options.isStringFolding {
            let l = SQLFragment("\(SQLFunctions.fold)(\(left.sql), \(options.rawValue))", left.arguments)
            let r = SQLFragment("\(SQLFunctions.fold)(\(right.sql), \(options.rawValue))", right.arguments)
            return SQLFragment("\(l.sql) \(op) \(r.sql)", l.arguments + r.arguments)
        }
        return binary(left, op, right)
    }

    private func membership(_ value: Operand, _ items: [Operand], _ options: ComparisonOptions) -> SQLFragment {
        if items.isEmpty { return SQLFragment("0") }
        let nonNull = items.filter { !$0.isNull }
        var parts: [SQLFragment] = []
        if !nonNull.isEmpty {
            if options.isStringFolding {
                parts.append(SQLFragment.join(nonNull.map { stringFunction("", .equal, options, value, $0) }, separator: " OR "))
            } else {
                parts.append(SQLFragment("\(value.sql) IN (\(nonNull.map(\.sql).joined(separator: ", ")))",
                                         value.arguments + nonNull.flatMap(\.arguments)))
            }
        }
        if nonNull.count < items.count { parts.append(SQLFragment("\(value.sql) IS NULL", value.arguments)) }
        return parts.count == 1 ? parts[0] : SQLFragment.join(parts.map(parenthesized), separator: " OR ")
    }

    /// String operators run through a registered function so that `[c]`, `[d]`, `LIKE` and `MATCHES` behave
    /// as Foundation's do (Unicode case and diacritic folding, whole-string ICU regular expressions), which
    /// SQLite's built-in `LIKE` (ASCII-only case folding, `%`/`_` wildcards) does not.
    private func stringFunction(_ prefix: String, _ op: ComparisonOperator, _ options: ComparisonOptions,
                                _ left: Operand, _ right: Operand) -> SQLFragment {
        SQLFragment("\(prefix)\(SQLFunctions.stringCompare)('\(op.rawValue)', \(options.rawValue), \(left.sql), \(right.sql))",
                    left.arguments + right.arguments)
    }

    func unsupported(_ message: String) -> StoreError {
        StoreError(.invalidInput, "predicate: " + message, entity: entity.name)
    }

    func invalid(_ message: String) -> StoreError {
        StoreError(.invalidInput, "predicate: " + message, entity: entity.name)
    }
}

extension ComparisonOptions {
    /// Whether strings must be folded before comparing (`[c]`, `[d]`, `[n]`).
    var isStringFolding: Bool { !intersection([.caseInsensitive, .diacriticInsensitive, .normalized]).isEmpty }
}
