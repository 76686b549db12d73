/// How model errors and issues name their place: `file:line:column: ` and `entity 'E', property 'p': `.
enum ModelPlace {
    /// `file:line:column: `, or "" without a file.
    static func location(file: String?, line: Int?, column: Int?) -> String {
        guard let file else { return "" }
        var text = file
        if let line { text += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return text + ": "
    }

    /// `entity 'E', property 'p': `, or "" without an entity.
    static func subject(entity: String?, property: String?) -> String {
        guard let entity else { return "" }
        return "entity '\(entity)'" + (property.map { ", property '\($0)'" } ?? "") + ": "
    }
}
