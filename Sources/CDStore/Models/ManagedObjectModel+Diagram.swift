import CDStoreModel
import CDStoreEngine

extension ManagedObjectModel {
    /// The text forms a model diagram is drawn in.
    public enum DiagramFormat: String, Sendable, CaseIterable {
        /// A Mermaid `erDiagram`, which GitHub and many editors draw.
        case mermaid
        /// Graphviz DOT: entities as tables of their attributes, inheritance, and relationships with crow's-foot
        /// cardinalities; `dot -Tsvg` lays it out.
        case dot
    }

    /// The model (or, with `entity`, the neighbourhood of one entity up to `depth` steps through relationships,
    /// parents and sub-entities) as diagram text, as `cdstore model diagram` prints it.
    ///
    /// The library draws no picture itself: it starts no program. Hand DOT to Graphviz's `dot -Tsvg` for SVG.
    ///
    /// - Throws: ``CDStoreError/Code/unknownName`` naming `entity`, and the nearest names, when it is not in the model.
    public func diagram(_ format: DiagramFormat, around entity: String? = nil, depth: Int = 1) throws -> String {
        if let entity, self.entity(named: entity) == nil {
            throw CDStoreError(.unknownName, "no entity '\(entity)' in the model"
                               + Suggestion.didYouMean(entity, among: entities.map(\.name)), entity: entity)
        }
        let diagram = try CDStoreError.wrapping { try ModelDiagram(self, around: entity, depth: depth) }
        return switch format {
        case .mermaid: diagram.mermaid()
        case .dot: diagram.dot()
        }
    }
}
