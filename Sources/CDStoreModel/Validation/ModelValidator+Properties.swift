import Foundation

/// A problem found by a rule, before it gets its location.
typealias Finding = (severity: ModelIssue.Severity, rule: ModelIssue.Rule, message: String)

/// Rules for one attribute or relationship.
extension ModelValidator.Context {
    mutating func check(_ attribute: Attribute, of entity: Entity) {
        var findings: [Finding] = []
        if let value = attribute.defaultValue, let problem = defaultValueProblem(value, attribute.type) {
            findings.append((problem.severity, .invalidDefault, problem.message))
        }
        checkLimits(attribute) { findings.append(($0, $1, $2)) }
        if let pattern = attribute.regularExpression, (try? NSRegularExpression(pattern: pattern)) == nil {
            findings.append((.error, .invalidRegularExpression, "invalid regular expression '\(pattern)'"))
        }
        for finding in findings {
            report(finding.severity, finding.rule, finding.message, entity: entity.name, property: attribute.name)
        }
    }

    /// What is wrong with `value` as a default of `type`, if anything.
    func defaultValueProblem(_ value: String, _ type: AttributeType) -> (severity: ModelIssue.Severity, message: String)? {
        let invalid = (ModelIssue.Severity.warning, "default '\(value)' is not a valid \(type.rawValue)")
        let text = value.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let range = type.integerRange else { return nil }
            if let number = Int64(text) {
                return range.contains(number) ? nil
                    : (.error, "default '\(value)' is out of range for \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))")
            }
            // A whole number too big for Int64, for example; anything else is not a number at all.
            if let number = Double(text), number.rounded() == number, !(Double(range.lowerBound)...Double(range.upperBound)).contains(number) {
                return (.error, "default '\(value)' is out of range for \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))")
            }
            return invalid
        case .decimal:
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil && Double(text) != nil ? nil : invalid
        case .double, .float:
            return Double(text) != nil ? nil : invalid
        case .boolean:
            return ["YES", "NO", "TRUE", "FALSE", "1", "0"].contains(text.uppercased()) ? nil : invalid
        case .uuid:
            return UUID(uuidString: text) != nil ? nil : invalid
        case .uri:
            return URL(string: text) != nil ? nil : invalid
        default:
            return nil
        }
    }

    /// Minimum and maximum: numbers for numeric types, lengths for strings and binary data, dates apart.
    func checkLimits(_ attribute: Attribute,
                     report: (ModelIssue.Severity, ModelIssue.Rule, String) -> Void) {
        if let low = attribute.minDateTimeInterval, let high = attribute.maxDateTimeInterval, low > high {
            report(.error, .minGreaterThanMax, "minimum date \(low) is later than maximum date \(high)")
        }
        let isLength = attribute.type == .string || attribute.type == .binary
        guard attribute.type.isNumeric || isLength else { return }
        func parse(_ text: String?, _ which: String) -> Double? {
            guard let text else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let number = isLength ? Int(trimmed).map(Double.init) : Double(trimmed)
            if number == nil {
                report(.warning, .invalidLimit, "\(which) '\(text)' is not " + (isLength ? "a whole number" : "a number"))
            }
            return number
        }
        let low = parse(attribute.minValue, "minimum"), high = parse(attribute.maxValue, "maximum")
        if let low, let high, low > high, let lowText = attribute.minValue, let highText = attribute.maxValue {
            report(.error, .minGreaterThanMax, (isLength ? "minimum length" : "minimum")
                   + " \(lowText) is greater than " + (isLength ? "maximum length" : "maximum") + " \(highText)")
        }
    }

    mutating func check(_ relationship: Relationship, of entity: Entity) {
        var findings: [Finding] = []
        defer {
            for finding in findings {
                report(finding.severity, finding.rule, finding.message, entity: entity.name, property: relationship.name)
            }
        }
        let report = { (severity: ModelIssue.Severity, rule: ModelIssue.Rule, message: String) in
            findings.append((severity, rule, message))
        }
        if relationship.destination.isEmpty {
            report(.error, .unknownDestination, "relationship has no destination entity")
        } else if model.entity(named: relationship.destination) == nil {
            report(.error, .unknownDestination, "destination entity '\(relationship.destination)' does not exist")
        }
        if !relationship.isToMany, relationship.minCount > 1 {
            report(.error, .invalidCount, "a to-one relationship cannot have minCount \(relationship.minCount)")
        } else if relationship.isToMany, relationship.maxCount > 0, relationship.minCount > relationship.maxCount {
            report(.error, .invalidCount,
                   "minCount \(relationship.minCount) is greater than maxCount \(relationship.maxCount)")
        }
        checkInverse(relationship, of: entity, report: report)
    }

    /// The inverse must exist on its entity (or be inherited there) and name this relationship back.
    func checkInverse(_ relationship: Relationship, of entity: Entity,
                      report: (ModelIssue.Severity, ModelIssue.Rule, String) -> Void) {
        guard let inverseName = relationship.inverseName else { return }
        let inverseEntityName = relationship.inverseEntity ?? relationship.destination
        guard let inverseEntity = model.entity(named: inverseEntityName) else {
            // An unknown destination is reported already; an unknown separate inverse entity is reported here.
            if inverseEntityName != relationship.destination {
                report(.error, .unknownInverse, "inverse entity '\(inverseEntityName)' does not exist")
            }
            return
        }
        guard let inverse = model.relationship(inverseName, of: inverseEntity) else {
            report(.error, .unknownInverse, "inverse '\(inverseName)' does not exist on entity '\(inverseEntityName)'")
            return
        }
        let lineage = Set(([entity] + model.ancestors(of: entity) + model.subtree(of: entity)).map(\.name))
        if !lineage.contains(inverse.destination) {
            // Writing through it would keep the "inverse" by storing this entity's keys in a relationship to another
            // entity, so the store refuses such writes (`RelationshipStorage.writableEdge`).
            report(.error, .inverseMismatch, "inverse '\(inverseEntityName).\(inverseName)' is a relationship to "
                   + "'\(inverse.destination)', not back to '\(entity.name)'")
            return
        }
        if inverse.inverseName != relationship.name {
            // A warning, not an error: Xcode compiles such models (Artsy's Image.artist → Artist.thumbnail,
            // whose own inverse is Image.thumbnail), and Core Data then keeps the two sides independently.
            let actual = inverse.inverseName.map { "'\($0)'" } ?? "none"
            report(.warning, .inverseMismatch, "inverse '\(inverseEntityName).\(inverseName)' does not point back "
                   + "(its inverse is \(actual))")
        }
    }
}
