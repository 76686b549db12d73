import CDStore
import Foundation

/// Objects and values as `cdstore export --format json` writes them: `_id`, `_entity` for an object of a
/// sub-entity, attributes, then relationships as object IDs (a to-many as an array); dates in ISO 8601 (UTC,
/// milliseconds, more digits when milliseconds would not read back to the stored value), binary data in base64,
/// UUIDs in capitals, decimals as numbers.
enum ObjectJSON {
    /// The most object IDs a to-many relationship lists in one object; more are cut, and the object says how
    /// many there are under `_counts`. Keeps one object from filling a result.
    static let maximumRelatedIDs = 100

    /// `object` as a JSON object; `requested` is the entity that was fetched (`_entity` appears when the object
    /// is of another, a sub-entity).
    static func object(_ object: StoredObject, requested: String?) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("_id", .string(object.objectID.description))]
        if let requested, requested != object.entity { pairs.append(("_entity", .string(object.entity))) }
        var relationships: [(String, JSONValue)] = []
        var counts: [(String, JSONValue)] = []
        for name in object.propertyNames {
            let value = object.value(forKey: name) ?? .null
            if object.isRelationship(name) {
                if case .array(let ids) = value, ids.count > maximumRelatedIDs {
                    relationships.append((name, .array(ids.prefix(maximumRelatedIDs).map(Self.value))))
                    counts.append((name, .integer(Int64(ids.count))))
                } else {
                    relationships.append((name, Self.value(value)))
                }
            } else {
                pairs.append((name, Self.value(value)))
            }
        }
        pairs += relationships
        if !counts.isEmpty { pairs.append(("_counts", .object(counts))) }
        return .object(pairs)
    }

    /// One stored value.
    static func value(_ value: ObjectValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .integer(let i): .integer(i)
        case .double(let d), .decimal(let d): .number(d)
        case .float(let f): f.isFinite ? .number(Double("\(f)") ?? Double(f)) : .string("\(f)")
        case .string(let s): .string(s)
        case .date(let d): .string(iso8601(d))
        case .uuid(let u): .string(u.uuidString)
        case .data(let d): .string(d.base64EncodedString())
        case .array(let items): .array(items.map(Self.value))
        case .dictionary(let pairs): .object(pairs.map { ($0.0, Self.value($0.1)) })
        }
    }

    /// Seconds since 2001-01-01 as ISO 8601 in UTC: three fraction digits, or the fewest (up to nine) that read
    /// back to the same Double.
    static func iso8601(_ secondsSince2001: Double) -> String {
        guard secondsSince2001.isFinite, abs(secondsSince2001) < 1e13 else { return String(secondsSince2001) }
        var whole = secondsSince2001.rounded(.down)
        var digits = 3
        var fraction = ((secondsSince2001 - whole) * 1000).rounded()
        if fraction >= 1000 { whole += 1; fraction -= 1000 }
        if whole + fraction / 1000 != secondsSince2001 {
            for width in 4...9 {
                let scale = pow(10, Double(width))
                var candidate = ((secondsSince2001 - secondsSince2001.rounded(.down)) * scale).rounded()
                var base = secondsSince2001.rounded(.down)
                if candidate >= scale { base += 1; candidate -= scale }
                if base + candidate / scale == secondsSince2001 || width == 9 {
                    whole = base
                    fraction = candidate
                    digits = width
                    break
                }
            }
        }
        let total = Int64(whole) + 978_307_200
        var days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let fractionText = String(Int64(fraction))
        return String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.", year, month, day,
                      secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60)
            + String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText + "Z"
    }
}
