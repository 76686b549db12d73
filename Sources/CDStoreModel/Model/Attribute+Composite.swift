extension Attribute {
    /// The attributes that have columns: for a Composite attribute its elements, each named by its path
    /// (`home.city`; nested composites give longer paths), optional when the composite is; for any other
    /// attribute, itself. Core Data flattens composites into columns of the entity's table, and records, CSV
    /// columns, predicates and sorts name an element by its path.
    package var columnAttributes: [Attribute] {
        guard type == .composite else { return [self] }
        return compositeElements.flatMap { element -> [Attribute] in
            var renamed = element
            renamed.name = name + "." + element.name
            if isOptional { renamed.isOptional = true }
            if isTransient { renamed.isTransient = true }
            return renamed.columnAttributes
        }
    }
}
