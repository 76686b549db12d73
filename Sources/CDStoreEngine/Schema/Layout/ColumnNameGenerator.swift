import CDStoreJSON
/// Core Data's column-name generator (coredata-format.md §1.5 "Uniquing").
///
/// There is one per root-entity hierarchy, shared by all its sub-entities, and every generated column name of
/// the hierarchy goes through it: attribute columns, to-one FK / entity-key / `Z_FOK_` columns, join-table
/// columns of relationships declared in the hierarchy and hidden to-one columns placed in its table.
///
/// It remembers requested *bases* only, each with a counter. A base never requested before is returned as is;
/// otherwise the result is the first of `base(n+1)`, `base(n+2)`, … (n = the base's counter) that has never
/// itself been requested as a base, and the counter becomes that number. The suffixed result is not recorded,
/// which is why `ZACCOUNT1` can later be handed out again if `ZACCOUNT1` is requested as a base.
final class ColumnNameGenerator {
    private var counters: [String: Int] = [:]

    /// A generator that has handed out nothing yet.
    init() {}

    /// The column name for a request of `base`.
    func unique(_ requested: String) -> String {
        var base = requested
        // Core Data rewrites a leading character that is not an ASCII letter into one (digits 0…9 → A…J).
        // Every base we request starts with "Z", so this only matters for robustness.
        if let first = base.unicodeScalars.first, !(first.isASCII && first.properties.isAlphabetic) {
            let letter = Unicode.Scalar(UInt8((Int(first.value) - 48).mod(26) + 65))
            base = String(Character(letter)) + String(base.unicodeScalars.dropFirst())
        }
        guard let counter = counters[base] else {
            counters[base] = 0
            return base
        }
        var n = counter
        repeat { n += 1 } while counters[base + String(n)] != nil
        counters[base] = n
        return base + String(n)
    }
}

/// Upper-casing rules for generated names (§1.5, §1.6).
enum ColumnNaming {
    /// Attribute columns: C `toupper` on every UTF-16 unit (ASCII letters only); names of 512 units or more
    /// use `-uppercaseString` instead.
    static func upperAttribute(_ name: String) -> String {
        if name.utf16.count >= 512 { return name.uppercased() }
        let units = name.utf16.map { unit -> UInt16 in
            (0x61...0x7A).contains(unit) ? unit - 0x20 : unit
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Table names and every relationship-derived name: `-[NSString uppercaseString]`.
    static func upper(_ name: String) -> String {
        name.uppercased()
    }

    /// The attribute column base `Z` + upper(name).
    static func attributeBase(_ name: String) -> String {
        "Z" + upperAttribute(name)
    }
}

extension Int {
    /// The non-negative remainder.
    fileprivate func mod(_ m: Int) -> Int {
        let r = self % m
        return r < 0 ? r + m : r
    }
}
