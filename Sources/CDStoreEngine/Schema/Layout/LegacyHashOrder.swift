import CDStoreJSON
/// The two legacy hash-table orders Core Data replays when it lays out relationships
/// (coredata-format.md §1.6 "Legacy hash order within one entity").
///
/// Core Data keeps private copies of two retired CoreFoundation dictionaries so that the order in which it
/// visits an entity's properties — and therefore which side of a many-to-many names the join table — never
/// changes between OS versions. Every key is an `NSString` hashed over its UTF-16 code units with 32-bit
/// arithmetic. Nothing here depends on the host's `Hasher`, which is randomly seeded.
enum LegacyHash {
    /// The low 32 bits of `CFStringHash` ("h(s)" in §1.6): strings up to 96 units are hashed whole, longer ones
    /// only by their first 32, middle 32 and last 32 units.
    static func l(_ string: String) -> UInt32 {
        let c = Array(string.utf16)
        let n = c.count
        var r = UInt32(truncatingIfNeeded: n)
        if n <= 96 {
            r = every(r, c)
        } else {
            let starts = Array(stride(from: 0, to: 32, by: 4))
                + Array(stride(from: n / 2 - 16, to: n / 2 + 16, by: 4))
                + Array(stride(from: n - 32, to: n, by: 4))
            for i in starts { r = four(r, c, i) }
        }
        return r &+ (r << UInt32(n & 31))
    }

    /// Folds every unit of `c` into `r`: groups of four, then the rest one by one (both hashes of short strings).
    private static func every(_ start: UInt32, _ c: [UInt16]) -> UInt32 {
        var r = start
        var i = 0
        while i + 4 <= c.count {
            r = four(r, c, i)
            i += 4
        }
        while i < c.count {
            r = r &* 257 &+ UInt32(c[i])
            i += 1
        }
        return r
    }

    /// The Mac OS X 10.4 `CFString` hash ("t(s)" in §1.6): strings of 24 units or more hash only their first
    /// 8 and last 16 units.
    static func t(_ string: String) -> UInt32 {
        let c = Array(string.utf16)
        let n = c.count
        var r = UInt32(truncatingIfNeeded: n)
        if n >= 24 {
            for i in [0, 4, n - 16, n - 12, n - 8, n - 4] { r = four(r, c, i) }
        } else {
            r = every(r, c)
        }
        return r &+ (r << UInt32(n & 31))
    }

    /// One step over four code units, shared by both hashes.
    private static func four(_ r: UInt32, _ c: [UInt16], _ i: Int) -> UInt32 {
        r &* 67_503_105 &+ UInt32(c[i]) &* 16_974_593 &+ UInt32(c[i + 1]) &* 66_049
            &+ UInt32(c[i + 2]) &* 257 &+ UInt32(c[i + 3])
    }

    /// The L-table's slot scrambler ("mix(x)" in §1.6): unsigned 32-bit arithmetic, logical shifts.
    static func mix(_ x: UInt32) -> UInt32 {
        let b = (1_264_676_453 &- x) ^ ((x &- 1) << 8)
        let c = (2 &- x &- b) ^ (b >> 13)
        let d = (x &- 1 &- b &- c) ^ (c >> 12)
        let e = (b &- c &- d) ^ (d << 16)
        let f = (c &- d &- e) ^ (e >> 5)
        let g = (d &- e &- f) ^ (f >> 3)
        let k = (e &- f &- g) ^ (g << 10)
        return (f &- g &- k) ^ (k >> 15)
    }
}

/// The growing "L-table" of §1.6: open addressing with linear probing, 4 slots for 3 keys at first, doubling
/// (capacity 6, 12, 24 … with 8, 16, 32 … slots) when a key is added to a full table; growing re-inserts the
/// old keys in their old slot order. ``keys`` enumerates in slot order, which is the order Core Data replays.
struct LTable {
    private var slots: [String?] = []
    private var capacity = 3
    private(set) var count = 0

    /// An empty table.
    init() {}

    /// A table that received `keys` in this order.
    init<S: Sequence>(_ keys: S) where S.Element == String {
        for key in keys { add(key) }
    }

    /// Inserts `key` unless present. Like the original, a full table grows before the duplicate check.
    mutating func add(_ key: String) {
        if slots.isEmpty || count == capacity {
            let old = slots
            if slots.isEmpty {
                capacity = 3
                slots = Array(repeating: nil, count: 4)
            } else {
                capacity *= 2
                slots = Array(repeating: nil, count: old.count * 2)
            }
            for case let key? in old {
                if let i = freeSlot(for: key) { slots[i] = key }
            }
        }
        if let i = freeSlot(for: key) {
            slots[i] = key
            count += 1
        }
    }

    /// The keys in slot order.
    var keys: [String] { slots.compactMap { $0 } }

    /// The slot `key` would take, or nil when it is already present.
    private func freeSlot(for key: String) -> Int? {
        let n = slots.count
        var i = Int(LegacyHash.mix(LegacyHash.l(key)) & UInt32(n - 1))
        while let present = slots[i] {
            if present == key { return nil }
            i = (i + 1) % n
        }
        return i
    }
}

/// The fixed-size "T-table" of §1.6, through which pass 2 walks an entity's keys.
enum TTable {
    /// Capacities and the prime slot counts that go with them.
    static let capacities = [4, 8, 17, 29, 47, 76, 123, 199, 322, 521, 843, 1364, 2207, 3571, 5778, 9349, 15127,
                             24476, 39603]
    static let slotCounts = [5, 11, 23, 41, 67, 113, 199, 317, 521, 839, 1361, 2207, 3571, 5779, 9349, 15121, 24473,
                             39607, 64081]

    /// The number of slots of a table sized for `count` keys: the first whose capacity is at least `count`.
    static func slotCount(for count: Int) -> Int {
        for (capacity, slots) in zip(capacities, slotCounts) where capacity >= count { return slots }
        return slotCounts[slotCounts.count - 1]
    }

    /// `keys` (inserted in this order) in the slot order of a table sized for `count` keys; slot = t(key) mod
    /// slots, linear probing.
    static func order(_ keys: [String], sizedFor count: Int) -> [String] {
        let size = slotCount(for: max(count, keys.count))
        var slots = [String?](repeating: nil, count: size)
        for key in keys {
            var i = Int(LegacyHash.t(key) % UInt32(size))
            while let present = slots[i], present != key { i = (i + 1) % size }
            slots[i] = key
        }
        return slots.compactMap { $0 }
    }
}
