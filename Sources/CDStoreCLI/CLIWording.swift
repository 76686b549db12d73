/// Library messages in the command line's words: the library names its own options (`upsert`, `groupBy`, a
/// model to give), and the command line says which flag that is (`--upsert`, `--group-by`, `--model`).
///
/// Each entry is a phrase only the library writes, so a replacement never touches user text around it.
enum CLIWording {
    static let phrases: [(library: String, cli: String)] = [
        ("(an export of one entity is an array); insert it into its entity, or export the whole graph",
         "(`export` with one entity writes an array); insert it with `cdstore insert ENTITY --file FILE`, or export the whole graph"),
        ("; insert with upsert to merge into it", "; use --upsert to merge into it"),
        ("reading works, writing needs a model", "reading works, writing needs --model"),
        ("diff entities: ", "--entity: "),
        ("diff keys: ", "--key: "),
        ("diff ignore: ", "--ignore: "),
        ("root key path ", "--root "),
        ("not to write: give the model the store was saved with", "not to write: give --model with the model the store was saved with"),
        (" (a model is needed to create one)", " (give --model to create one)"),
        (" and migration is off: ", " and migration is off (--no-migrate): "),
        ("open it without a model to use its own, or migrate it",
         "read it without --model to use its own model, or migrate it with `cdstore migrate`"),
        ("134130); give a model — ", "134130); give --model — "),
        ("); give a model", "); give --model"),
        (" s (the busy timeout)", " s (--busy-timeout)"),
        (" read as null (reading them strictly makes this an error)", " read as null (--strict makes this an error)"),
        ("(sub-entities or includes)", "(sub-entities or --include)"),
        ("pick one by name (versions: ", "pick one with --model-version (versions: "),
        ("no properties: name at least one property", "no properties: name at least one (--properties name,age)"),
        ("projection: having needs groupBy: it filters groups, and there are none (filter objects with the predicate)",
         "projection: --having needs --group-by: it filters groups, and there are none (use --where to filter objects)"),
        (": group by it (groupBy ", ": group by it (--group-by "),
        (": add it to groupBy or apply a function", ": add it to --group-by or apply a function"),
        ("projection: groupBy '", "projection: --group-by '"),
        ("use a result key, a groupBy key or a function", "use a result key, a --group-by key or a function"),
        ("projection: having: ", "projection: --having: "),
        ("projection: sort '", "projection: --sort '"),
        (": an aggregate needs groupBy", ": an aggregate needs --group-by"),
    ]

    /// `message` with the library's phrases replaced by the command line's.
    static func flags(_ message: String) -> String {
        var text = message
        for (library, cli) in phrases where text.contains(library) {
            text = text.replacingOccurrences(of: library, with: cli)
        }
        if let noRelationship = text.range(of: #"no relationship '[^']*' to include"#, options: .regularExpression) {
            let name = text[noRelationship].dropFirst("no relationship '".count).dropLast("' to include".count)
            text.replaceSubrange(noRelationship, with: "--include: no relationship '\(name)'")
        }
        if let variable = text.range(of: #"variable \$[A-Za-z_][A-Za-z0-9_]* has no value"#, options: .regularExpression) {
            let name = text[variable].dropFirst("variable $".count).dropLast(" has no value".count)
            text.insert(contentsOf: " (give it with --var \(name)=VALUE)", at: variable.upperBound)
        }
        return text
    }
}
