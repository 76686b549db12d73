import CDStore
import Foundation

/// How `cdstore migrate` prints a plan: one line per hop, per entity mapping's objects, and per change with the
/// number of SQL statements on its tables.
enum MigrationPlanText {
    static func lines(_ plan: CDStore.MigrationPlan) -> [String] {
        var lines: [String] = []
        for step in plan.steps {
            let how = step.mappingModel.map { " by mapping model \(URL(fileURLWithPath: $0).lastPathComponent)" } ?? " (inferred)"
            lines.append("step \(step.from) → \(step.to)\(how): \(step.changes.count) changes, \(step.statementCount) SQL statements"
                         + (step.renumbersEntities ? " (entities renumbered)" : ""))
            for count in step.objectCounts { lines.append(line(count)) }
            for (change, statements) in zip(step.changes, step.statementCounts) {
                lines.append("  \(change) — \(statements) SQL statements")
            }
            lines.append("  Z_PRIMARYKEY and metadata — \(step.bookkeepingStatementCount + 1) SQL statements")
        }
        return lines
    }

    private static func line(_ count: CDStore.MigrationPlan.MappedObjects) -> String {
        guard let mapping = count.mapping else {
            return "  !! \(count.sourceEntity ?? "?"): \(count.leftBehind) objects dropped — no entity mapping takes them"
        }
        return "  \(mapping) (\(count.sourceEntity ?? "(none)") → \(count.destinationEntity ?? "(none)")): "
            + "\(count.taken) taken, \(count.created) created, \(count.leftBehind) left behind"
    }
}
