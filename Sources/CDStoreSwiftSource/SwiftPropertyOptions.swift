import CDStoreModel
import Foundation
import SwiftSyntax

/// The arguments of `@Attribute(…)` and `@Relationship(…)`, and literal default values.
enum SwiftPropertyOptions {
    struct AttributeOptions {
        var isUnique = false
    }

    /// Applies `@Attribute(.unique, .externalStorage, …, originalName: "x", hashModifier: "y")`.
    static func applyAttribute(_ syntax: AttributeSyntax?, to attribute: inout Attribute) throws -> AttributeOptions {
        var options = AttributeOptions()
        guard case .argumentList(let arguments)? = syntax?.arguments else { return options }
        for argument in arguments {
            switch argument.label?.text {
            case "originalName": attribute.renamingIdentifier = stringLiteral(argument.expression)
            case "hashModifier": attribute.versionHashModifier = stringLiteral(argument.expression)
            case nil: applyOption(argument.expression, to: &attribute, options: &options)
            default: break
            }
        }
        return options
    }

    /// Whether `@Attribute(…)` has the `.transformable(by:)` option.
    static func declaresTransformable(_ syntax: AttributeSyntax?) -> Bool {
        declares("transformable", in: syntax)
    }

    /// Whether `@Attribute(…)` has the option `name` (`.codable`, or `.transformable(by:)` called).
    static func declares(_ name: String, in syntax: AttributeSyntax?) -> Bool {
        guard case .argumentList(let arguments)? = syntax?.arguments else { return false }
        return arguments.contains { argument in
            guard argument.label == nil else { return false }
            let called = argument.expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? argument.expression
            return called.as(MemberAccessExprSyntax.self)?.declName.baseName.text == name
        }
    }

    private static func applyOption(_ expression: ExprSyntax, to attribute: inout Attribute,
                                    options: inout AttributeOptions) {
        var name = ""
        var call: FunctionCallExprSyntax?
        if let member = expression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
        } else if let invocation = expression.as(FunctionCallExprSyntax.self),
                  let member = invocation.calledExpression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            call = invocation
        }
        switch name {
        case "unique": options.isUnique = true
        case "externalStorage": attribute.allowsExternalBinaryDataStorage = true
        case "preserveValueOnDeletion": attribute.preservesValueInHistoryOnDeletion = true
        case "ephemeral": attribute.isTransient = true
        case "spotlight": attribute.isIndexedBySpotlight = true
        case "allowsCloudEncryption": attribute.allowsCloudEncryption = true
        case "transformable":
            attribute.type = .transformable
            attribute.compositeElements = []
            attribute.compositeName = nil
            if let by = call?.arguments.first(where: { $0.label?.text == "by" })?.expression {
                attribute.valueTransformerName = stringLiteral(by)
                    ?? SwiftDeclarationCollector.selfReference(by).map { $0.split(separator: ".").last.map(String.init) ?? $0 }
            }
        default: break
        }
    }

    /// Applies `@Relationship(.unique, deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 5,
    /// originalName: "x", inverse: \Other.name, hashModifier: "y")`; returns the inverse it names.
    static func applyRelationship(_ syntax: AttributeSyntax?, to relationship: inout Relationship, from scope: [String],
                                  builder: SwiftModelBuilder) throws -> (entity: String, name: String)? {
        relationship.deleteRule = .nullify
        guard case .argumentList(let arguments)? = syntax?.arguments else { return nil }
        var inverse: (String, String)?
        for argument in arguments {
            switch argument.label?.text {
            case "deleteRule":
                let rule = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                switch rule {
                case "cascade": relationship.deleteRule = .cascade
                case "deny": relationship.deleteRule = .deny
                case "noAction": relationship.deleteRule = .noAction
                default: relationship.deleteRule = .nullify
                }
            case nil:
                // The first SwiftData betas took the delete rule as an option, `@Relationship(.cascade, inverse:)`,
                // and sources written then (Apple's Backyard Birds sample) still say so.
                switch argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text {
                case "cascade": relationship.deleteRule = .cascade
                case "deny": relationship.deleteRule = .deny
                case "noAction": relationship.deleteRule = .noAction
                default: break
                }
            case "minimumModelCount":
                if let count = integerLiteral(argument.expression) { relationship.minCount = count }
            case "maximumModelCount":
                if let count = integerLiteral(argument.expression) { relationship.maxCount = count }
            case "originalName": relationship.renamingIdentifier = stringLiteral(argument.expression)
            case "hashModifier": relationship.versionHashModifier = stringLiteral(argument.expression)
            case "inverse":
                // `\Schemas.V3.Item.tags` parses as the root `Schemas` and the components `V3`, `Item`, `tags`: the
                // inverse is the last component, and the ones before it qualify the root type.
                guard let keyPath = argument.expression.as(KeyPathExprSyntax.self) else { continue }
                let components = keyPathComponents(keyPath)
                guard let property = components.last else { continue }
                var entity = relationship.destination
                if let root = keyPath.root {
                    let typeName = ([SwiftTypeReference(root).description] + components.dropLast()).joined(separator: ".")
                    if let rootClass = try builder.findClass(typeName, from: scope) { entity = rootClass.name }
                }
                inverse = (entity, property)
            default: break
            }
        }
        return inverse
    }

    /// The property names of the key paths in `[\.a, \.b]` (or a single `\.a`).
    static func keyPaths(_ expression: ExprSyntax) -> [String] {
        if let keyPath = expression.as(KeyPathExprSyntax.self) {
            return [keyPathComponents(keyPath).joined(separator: ".")]
        }
        guard let array = expression.as(ArrayExprSyntax.self) else { return [] }
        return array.elements.compactMap { element in
            element.expression.as(KeyPathExprSyntax.self).map { keyPathComponents($0).joined(separator: ".") }
        }
    }

    static func keyPathComponents(_ keyPath: KeyPathExprSyntax) -> [String] {
        keyPath.components.compactMap { $0.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text }
    }

    /// A literal initial value as the model's default text (numbers as written, Booleans YES/NO, plain strings);
    /// nil for anything that needs evaluating (`Date.now`, `UUID()`), which SwiftData evaluates at launch.
    static func literalDefault(_ expression: ExprSyntax, type: AttributeType) -> String? {
        if let bool = expression.as(BooleanLiteralExprSyntax.self), type == .boolean {
            return bool.literal.tokenKind == .keyword(.true) ? "YES" : "NO"
        }
        if type.isNumeric {
            if let integer = integerLiteral(expression) { return String(integer) }
            if let float = expression.as(FloatLiteralExprSyntax.self) {
                return float.literal.text.replacingOccurrences(of: "_", with: "")
            }
            if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
               let float = prefix.expression.as(FloatLiteralExprSyntax.self) {
                return "-" + float.literal.text.replacingOccurrences(of: "_", with: "")
            }
            return nil
        }
        if type == .string || type == .uri { return stringLiteral(expression) }
        return nil
    }

    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }

    static func integerLiteral(_ expression: ExprSyntax) -> Int? {
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return integerLiteral(prefix.expression).map { -$0 }
        }
        guard let literal = expression.as(IntegerLiteralExprSyntax.self) else { return nil }
        let text = literal.literal.text.replacingOccurrences(of: "_", with: "")
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0b") { return Int(text.dropFirst(2), radix: 2) }
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        return Int(text)
    }
}
