import CDStoreModel
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

/// Square brackets nested deeper than any model needs. swift-syntax 602's parser takes time exponential in the
/// nesting of `[` (its lookahead for inline-array types tries every split): 16 levels took 5 s and 20 levels
/// over a minute (found by `fuzz-swift-model`). SwiftData types nest two or three levels (`[String: [Int]]`), so
/// more than ``limit`` is refused before parsing, with the place of the first bracket too deep.
enum SwiftBracketDepth {
    static let limit = 10

    static func check(_ text: String, file: String) -> ModelError? {
        var depth = 0, line = 1, column = 0
        var inString = false, inComment = false, escaped = false
        var previous: Character = " "
        for character in text {
            column += 1
            defer { previous = character }
            if character == "\n" {
                line += 1
                column = 0
                inComment = false
                inString = false
                continue
            }
            if inComment { continue }
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "/" where previous == "/": inComment = true
            case "[":
                depth += 1
                if depth > limit {
                    return ModelError(.malformedSwift, "brackets nested more than \(limit) deep; cdstore reads "
                                      + "@Model sources with at most \(limit) levels of '['", file: file, line: line,
                                      column: column)
                }
            case "]": depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}
