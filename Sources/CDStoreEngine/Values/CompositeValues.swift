/// Composite attribute values as objects: the element values a fetch reads under their paths (`home.city`,
/// `home.street`) folded into one dictionary value `home` (`{"city": …, "street": …}`), placed where the first
/// element was. A nil composite is `null`: Core Data keeps no flag for it, only every element column NULL, so a
/// composite whose elements are all NULL reads as nil (as the streamed export, CDStoreIO's `RecordEncoder`, prints it).
/// Attribute names never contain a dot, so a dotted name is always an element path.
/// A SwiftData enum's raw value arrives under the property's own name (``Attribute/recordAttributes``), so it
/// stays the value itself.
enum CompositeValues {
    static func folded(_ values: [(String, ObjectValue)]) -> [(String, ObjectValue)] {
        guard values.contains(where: { $0.0.contains(".") }) else { return values }
        var result: [(String, ObjectValue)] = []
        var groups: [String: [(String, ObjectValue)]] = [:]
        var order: [String] = []
        for (name, value) in values {
            guard let dot = name.firstIndex(of: ".") else {
                result.append((name, value))
                continue
            }
            let head = String(name[..<dot]), rest = String(name[name.index(after: dot)...])
            if groups[head] == nil {
                order.append(head)
                result.append((head, .null))
            }
            groups[head, default: []].append((rest, value))
        }
        for head in order {
            let index = result.firstIndex { $0.0 == head }!
            let members = folded(groups[head]!)
            result[index].1 = members.allSatisfy { $0.1 == .null } ? .null : .dictionary(members)
        }
        return result
    }
}
