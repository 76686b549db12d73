import SwiftSyntax

/// The first syntax error of a parsed file, in words: swift-syntax's parser always returns a tree, marking
/// what it expected but did not find as *missing* tokens and what it could not place as *unexpected* nodes.
/// The earlier of the two is reported, with its line and column.
enum SwiftSyntaxProblem {
    static func first(in tree: SourceFileSyntax, file: String) -> ModelError? {
        guard tree.hasError else { return nil }
        let finder = Finder(viewMode: .all)
        finder.walk(tree)
        guard let (position, message) = finder.found else {
            return ModelError(.malformedSwift, "the file does not parse as Swift", file: file)
        }
        let place = SourceLocationConverter(fileName: file, tree: tree).location(for: position)
        return ModelError(.malformedSwift, message, file: file, line: place.line, column: place.column)
    }

    private final class Finder: SyntaxVisitor {
        var found: (AbsolutePosition, String)?

        override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
            let text = node.trimmedDescription
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            record(node.positionAfterSkippingLeadingTrivia, "unexpected '\(shown)'" + Self.context(Syntax(node)))
            return .skipChildren
        }

        override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
            guard token.presence == .missing else { return .skipChildren }
            record(token.position, "expected " + Self.describe(token) + Self.context(Syntax(token)))
            return .skipChildren
        }

        private func record(_ position: AbsolutePosition, _ message: String) {
            if let (known, _) = found, known <= position { return }
            found = (position, message)
        }

        static func describe(_ token: TokenSyntax) -> String {
            // A placeholder token stands for a whole missing construct: name the construct.
            if let parent = token.parent {
                if parent.is(MissingExprSyntax.self) { return "an expression" }
                if parent.is(MissingTypeSyntax.self) { return "a type" }
                if parent.is(MissingDeclSyntax.self) { return "a declaration" }
                if parent.is(MissingPatternSyntax.self) { return "a name" }
            }
            switch token.tokenKind {
            case .identifier: return "a name"
            case .integerLiteral, .floatLiteral: return "a number"
            case .stringSegment: return "text"
            default:
                let text = token.text
                return text.isEmpty ? "more text" : "'\(text)'"
            }
        }

        /// " in <construct>" for the nearest enclosing declaration or statement kind.
        static func context(_ node: Syntax) -> String {
            var current = node.parent
            while let candidate = current {
                if candidate.is(ClassDeclSyntax.self) { return " in a class declaration" }
                if candidate.is(StructDeclSyntax.self) { return " in a struct declaration" }
                if candidate.is(EnumDeclSyntax.self) { return " in an enum declaration" }
                if candidate.is(VariableDeclSyntax.self) { return " in a property declaration" }
                if candidate.is(FunctionDeclSyntax.self) || candidate.is(InitializerDeclSyntax.self) {
                    return " in a function"
                }
                if candidate.is(AttributeSyntax.self) { return " in an attribute" }
                current = candidate.parent
            }
            return ""
        }
    }
}
