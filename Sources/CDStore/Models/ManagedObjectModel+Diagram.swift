import CDStoreModel
import CDStoreEngine

/// What a diagram of a model draws; `mermaid()` and `dot()` write it as text.
public typealias ModelDiagram = CDStoreModel.ModelDiagram

extension ManagedObjectModel {
    /// What a diagram of the model (or, with `entity`, of the neighbourhood of one entity up to `depth` steps
    /// through relationships, parents and sub-entities) draws: its entities, relationship lines and inheritance.
    ///
    /// ```swift
    /// let diagram = try model.diagram(around: "Employee", depth: 2)
    /// try diagram.mermaid().write(toFile: "model.mmd", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// The library draws no picture itself and starts no program: hand ``ModelDiagram/dot()`` to Graphviz's
    /// `dot -Tsvg` for SVG.
    ///
    /// - Throws: ``CDStoreError/Code/unknownName`` naming `entity`, and the nearest names, when it is not in the model.
    public func diagram(around entity: String? = nil, depth: Int = 1) throws -> ModelDiagram {
        if let entity, self.entity(named: entity) == nil {
            throw CDStoreError(.unknownName, "no entity '\(entity)' in the model"
                               + Suggestion.didYouMean(entity, among: entities.map(\.name)), entity: entity)
        }
        return try CDStoreError.wrapping { try ModelDiagram(self, around: entity, depth: depth) }
    }
}
