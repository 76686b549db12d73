/// The property types Xcode's generated classes declare for attributes.
///
/// Object types are always optional (Swift `String?`, Objective-C `nullable`) whatever the model says, because a
/// new object has no values until it is saved; numbers and Booleans are scalars when the attribute says
/// `usesScalarValueType` (absent means no, so models older than Xcode 8 give `NSNumber`).
/// The corpus pairs in `../shared/corpus/codegen` are the reference (Kuery's `Dog`/`Person`, Xcode 9): Binary →
/// `Data?`, Date → `Date?`, Transformable → its custom class or `NSObject?`.
enum XcodeTypes {
    /// The Swift type of `attribute` in `@NSManaged public var name: Type`.
    static func swift(_ attribute: Attribute) -> String {
        let scalar = attribute.usesScalarValueType == true
        switch attribute.type {
        case .integer16: return scalar ? "Int16" : "NSNumber?"
        case .integer32: return scalar ? "Int32" : "NSNumber?"
        case .integer64: return scalar ? "Int64" : "NSNumber?"
        case .decimal: return "NSDecimalNumber?"
        case .double: return scalar ? "Double" : "NSNumber?"
        case .float: return scalar ? "Float" : "NSNumber?"
        case .boolean: return scalar ? "Bool" : "NSNumber?"
        case .string: return "String?"
        case .date: return "Date?"
        case .binary: return "Data?"
        case .uuid: return "UUID?"
        case .uri: return "URL?"
        case .transformable: return (customClass(attribute) ?? "NSObject") + "?"
        case .undefined: return "NSObject?"
        case .objectID: return "NSManagedObjectID?"
        case .composite: return "NSDictionary?"
        }
    }

    /// The Objective-C declaration of `attribute`: the property attributes and the type, e.g.
    /// `("nullable, nonatomic, copy", "NSString *")` or `("nonatomic", "int16_t ")`.
    static func objc(_ attribute: Attribute) -> (attributes: String, type: String) {
        let scalar = attribute.usesScalarValueType == true
        func object(_ name: String, copy: Bool) -> (String, String) {
            ("nullable, nonatomic, \(copy ? "copy" : "retain")", "\(name) *")
        }
        func number(_ cType: String) -> (String, String) {
            scalar ? ("nonatomic", "\(cType) ") : object("NSNumber", copy: true)
        }
        switch attribute.type {
        case .integer16: return number("int16_t")
        case .integer32: return number("int32_t")
        case .integer64: return number("int64_t")
        case .decimal: return object("NSDecimalNumber", copy: true)
        case .double: return number("double")
        case .float: return number("float")
        case .boolean: return number("BOOL")
        case .string: return object("NSString", copy: true)
        case .date: return scalar ? ("nonatomic", "NSTimeInterval ") : object("NSDate", copy: true)
        case .binary: return object("NSData", copy: false)
        case .uuid: return object("NSUUID", copy: true)
        case .uri: return object("NSURL", copy: true)
        case .transformable:
            // A Swift type name ("[String]") is no Objective-C class: Xcode falls back to NSObject.
            let name = customClass(attribute).flatMap { isObjCIdentifier($0) ? $0 : nil } ?? "NSObject"
            return object(name, copy: false)
        case .undefined: return object("NSObject", copy: false)
        case .objectID: return object("NSManagedObjectID", copy: false)
        case .composite: return object("NSDictionary", copy: false)
        }
    }

    /// The custom class of a Transformable attribute, when it names one.
    static func customClass(_ attribute: Attribute) -> String? {
        guard let name = attribute.customClassName?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
        return name
    }

    static func isObjCIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.properties.isAlphabetic && first.isASCII) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
    }
}
