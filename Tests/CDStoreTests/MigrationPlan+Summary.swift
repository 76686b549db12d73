import CDStore
import Foundation

extension CDStore.MigrationPlan {
    /// The plan's values in lines, for assertions: per hop "step A → B by mapping model F: n changes, m SQL
    /// statements" (or "(inferred)"), then each entity mapping's objects and each change with its statements.
    var summary: [String] {
        steps.flatMap { step -> [String] in
            let how = step.mappingModel.map { " by mapping model \(URL(fileURLWithPath: $0).lastPathComponent)" } ?? " (inferred)"
            var lines = ["step \(step.from) → \(step.to)\(how): \(step.changes.count) changes, \(step.statementCount) SQL statements"
                         + (step.renumbersEntities ? " (entities renumbered)" : "")]
            for count in step.objectCounts {
                if let mapping = count.mapping {
                    lines.append("  \(mapping) (\(count.sourceEntity ?? "(none)") → \(count.destinationEntity ?? "(none)")): "
                                 + "\(count.taken) taken, \(count.created) created, \(count.leftBehind) left behind")
                } else {
                    lines.append("  !! \(count.sourceEntity ?? "?"): \(count.leftBehind) objects dropped — no entity mapping takes them")
                }
            }
            for (change, statements) in zip(step.changes, step.statementCounts) {
                lines.append("  \(change) — \(statements) SQL statements")
            }
            return lines + ["  Z_PRIMARYKEY and metadata — \(step.bookkeepingStatementCount + 1) SQL statements"]
        }
    }
}
