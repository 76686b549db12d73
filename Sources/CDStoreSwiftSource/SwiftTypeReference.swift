import CDStoreModel
import SwiftSyntax

/// A Swift type as written in a `@Model` source, reduced to what SwiftData's mapping looks at: optionality,
/// collections, and the name of the type (module prefixes such as `Foundation.` dropped, nesting kept as
/// written, e.g. `DataV1.User`).
indirect enum SwiftTypeReference: Equatable, CustomStringConvertible {
    /// `T?`, `T!` or `Optional<T>`.
    case optional(SwiftTypeReference)
    /// `[T]`, `Array<T>`, `ContiguousArray<T>`.
    case array(SwiftTypeReference)
    /// `Set<T>`.
    case set(SwiftTypeReference)
    /// `[K: V]`, `Dictionary<K, V>`.
    case dictionary(SwiftTypeReference, SwiftTypeReference)
    /// A named type, possibly generic (`Measurement<UnitLength>`): the written name and its arguments.
    case named(String, [SwiftTypeReference])
    /// Something SwiftData cannot store as a property (a tuple, a function, an existential), as written.
    case unsupported(String, reason: String)

    /// Reads a type annotation.
    init(_ type: TypeSyntax) {
        if let optional = type.as(OptionalTypeSyntax.self) {
            self = .optional(SwiftTypeReference(optional.wrappedType))
        } else if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self = .optional(SwiftTypeReference(unwrapped.wrappedType))
        } else if let array = type.as(ArrayTypeSyntax.self) {
            self = .array(SwiftTypeReference(array.element))
        } else if let dictionary = type.as(DictionaryTypeSyntax.self) {
            self = .dictionary(SwiftTypeReference(dictionary.key), SwiftTypeReference(dictionary.value))
        } else if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first, only.firstName == nil {
                self = SwiftTypeReference(only.type)
            } else {
                self = .unsupported(tuple.trimmedDescription, reason: "a tuple has no stored form")
            }
        } else if let attributed = type.as(AttributedTypeSyntax.self) {
            self = SwiftTypeReference(attributed.baseType)
        } else if let identifier = type.as(IdentifierTypeSyntax.self) {
            self = Self.generic(identifier.name.text, identifier.genericArgumentClause)
        } else if let member = type.as(MemberTypeSyntax.self) {
            self = Self.generic(Self.memberName(member), member.genericArgumentClause)
        } else if type.is(FunctionTypeSyntax.self) {
            self = .unsupported(type.trimmedDescription, reason: "a function has no stored form")
        } else if type.is(SomeOrAnyTypeSyntax.self) || type.is(CompositionTypeSyntax.self) {
            self = .unsupported(type.trimmedDescription, reason: "an existential has no single stored form")
        } else {
            self = .unsupported(type.trimmedDescription, reason: Self.unknownForm)
        }
    }

    /// The reason for a type whose syntax cdstore does not map (where the others are forms SwiftData refuses).
    static let unknownForm = "cdstore does not know how SwiftData stores it"

    private static func memberName(_ member: MemberTypeSyntax) -> String {
        let base: String
        if let inner = member.baseType.as(MemberTypeSyntax.self) {
            base = memberName(inner)
        } else if let identifier = member.baseType.as(IdentifierTypeSyntax.self) {
            base = identifier.name.text
        } else {
            base = member.baseType.trimmedDescription
        }
        // Module qualifiers of standard types carry no meaning for the mapping.
        if ["Swift", "Foundation", "SwiftData", "CoreGraphics"].contains(base) { return member.name.text }
        return base + "." + member.name.text
    }

    private static func generic(_ name: String, _ clause: GenericArgumentClauseSyntax?) -> SwiftTypeReference {
        var arguments: [SwiftTypeReference] = []
        for argument in clause?.arguments ?? [] {
            switch argument.argument {
            case .type(let type): arguments.append(SwiftTypeReference(type))
            case .expr(let expression):
                arguments.append(.unsupported(expression.trimmedDescription, reason: "a value generic argument"))
            }
        }
        switch (name, arguments.count) {
        case ("Optional", 1): return .optional(arguments[0])
        case ("Array", 1), ("ContiguousArray", 1): return .array(arguments[0])
        case ("Set", 1): return .set(arguments[0])
        case ("Dictionary", 2): return .dictionary(arguments[0], arguments[1])
        default: return .named(name, arguments)
        }
    }

    /// The type without one level of optionality, and whether there was one.
    var unwrapped: (type: SwiftTypeReference, isOptional: Bool) {
        if case .optional(let wrapped) = self {
            // `T??` stores as `T?`.
            return (wrapped.unwrapped.type, true)
        }
        return (self, false)
    }

    var description: String {
        switch self {
        case .optional(let wrapped): wrapped.description + "?"
        case .array(let element): "[" + element.description + "]"
        case .set(let element): "Set<" + element.description + ">"
        case .dictionary(let key, let value): "[" + key.description + ": " + value.description + "]"
        case .named(let name, let arguments):
            arguments.isEmpty ? name : name + "<" + arguments.map(\.description).joined(separator: ", ") + ">"
        case .unsupported(let text, _): text
        }
    }
}
