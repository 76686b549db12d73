/// An element read whole: for small documents read as a tree (property lists, mapping models) rather than as
/// events. Built without recursion; its depth is bounded by ``XMLReader/Limits/depth``.
package struct XMLTreeElement: Sendable, Equatable {
    package var name: String
    /// In the order written.
    package var attributes: [XMLAttribute]
    package var children: [XMLTreeElement]
    /// The character data directly inside the element (not its children's), pieces joined: enough for the
    /// documents cdstore reads, which never mix text and elements.
    package var text: String
    /// Where its start tag begins (its `<`).
    package var position: XMLPosition

    package init(name: String, attributes: [XMLAttribute] = [], children: [XMLTreeElement] = [], text: String = "",
                 position: XMLPosition) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.position = position
    }

    /// The value of the attribute called `name`.
    package subscript(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first child element called `name`.
    package func child(_ name: String) -> XMLTreeElement? {
        children.first { $0.name == name }
    }

    /// Reads a whole document and returns its root element; throws ``XMLError``.
    package static func parse(_ bytes: [UInt8], limits: XMLReader.Limits = XMLReader.Limits()) throws -> XMLTreeElement {
        var reader = try XMLReader(bytes, limits: limits)
        var stack: [XMLTreeElement] = []
        var root: XMLTreeElement?
        while let event = try reader.next() {
            switch event {
            case .start(let tag):
                stack.append(XMLTreeElement(name: tag.name, attributes: tag.attributes,
                                        position: reader.position(at: tag.offset)))
            case .text(let text, _):
                stack[stack.count - 1].text += text
            case .end:
                let done = stack.removeLast()
                if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
            }
        }
        // The reader ends without an error only once the root is closed; this guard is never expected to fire.
        guard let root else { throw XMLError("no root element", at: reader.position) }
        return root
    }
}
