import CDStoreJSON
import CDStoreModel
import Foundation

/// How `ACHANGE` numbers one entity's properties: the bit order of `ZCOLUMNS` and the column order of
/// `ZTOMBSTONE<n>`.
///
/// What is known, and how sure:
///
/// - `ZCOLUMNS` is NULL for inserts and deletes (seen: the corpus SwiftData store's only change, an insert).
///   For an update it is a bitmap of the properties the save changed, read **most significant bit first**:
///   bit 0 is `0x80` of the first byte. Bit *i* is the *i*-th of the changed object's own (concrete) entity's
///   stored properties — attributes and relationships, to-many ones included, inherited ones included — in one
///   list **sorted by name**. The corpus has no update to check this against; it is what a third-party reader
///   reports after comparing its decoding with `NSPersistentHistoryChange.updatedProperties` on a real store
///   (a `Note` entity whose table order `ZPINNED, ZFOLDER, ZMODIFIEDAT, ZBODY, ZTITLE` came back in bitmap order
///   `body, folder, modifiedAt, pinned, title`), and forensic readers see bitmaps wider than the table's columns,
///   which only to-many relationships can explain. Sorting is by Unicode scalars (case-sensitive, as `compare:`
///   without options); the sample has no names that differ in case, so that part is UNCERTAIN. A bitmap is as
///   many bytes as the property count needs (`ceil(n / 8)`; e.g. 4 bytes in a Contacts store).
/// - `ZTOMBSTONE<n>` (there are as many columns as the model's largest number of such attributes in one
///   entity) holds, for a delete, the value of the *n*-th of the entity's attributes marked *preserve after
///   deletion*, sorted by name, stored as the attribute's own column stores it. Other changes leave them NULL.
///   Same evidence; attributes with external binary storage are said not to be preserved.
///
/// Core Data equivalent: `NSPersistentHistoryChange.updatedProperties` and `.tombstone`.
package struct HistoryPropertyOrder: Sendable, Equatable {
    /// The stored properties in bit order.
    package let properties: [String]
    /// The preserve-after-deletion attributes in `ZTOMBSTONE<n>` order.
    package let tombstones: [String]
    private let bitByName: [String: Int]

    /// The order of `entity`'s properties in `model`.
    package init(entity: Entity, model: ManagedObjectModel) {
        let attributes = model.attributes(of: entity).filter { !$0.isTransient }
        let relationships = model.relationships(of: entity).filter { !$0.isTransient }
        properties = Self.sorted(attributes.map(\.name) + relationships.map(\.name))
        tombstones = Self.sorted(attributes.filter(\.preservesValueInHistoryOnDeletion).map(\.name))
        bitByName = Dictionary(properties.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func sorted(_ names: [String]) -> [String] {
        Array(Set(names)).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The bit of the property called `name`, nil when the entity has no such stored property.
    package func bit(of name: String) -> Int? { bitByName[name] }

    /// How many bytes a bitmap of this entity takes.
    package var byteCount: Int { (properties.count + 7) / 8 }

    /// The names of the bits set in `bitmap`, in bit order; a bit past the properties is `#BIT`.
    package func names(in bitmap: Data) -> [String] {
        Self.bits(in: bitmap).map { $0 < properties.count ? properties[$0] : "#\($0)" }
    }

    /// The bitmap with the bits of `names` set (names the entity does not have are left out); nil when none is set.
    package func bitmap(_ names: some Sequence<String>) -> Data? {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var any = false
        for name in names {
            guard let bit = bitByName[name] else { continue }
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
            any = true
        }
        return any ? Data(bytes) : nil
    }

    /// The set bits of `bitmap`, most significant bit of the first byte first.
    package static func bits(in bitmap: Data) -> [Int] {
        var bits: [Int] = []
        for (index, byte) in bitmap.enumerated() where byte != 0 {
            for offset in 0..<8 where byte & (0x80 >> UInt8(offset)) != 0 { bits.append(index * 8 + offset) }
        }
        return bits
    }

    /// The bitwise OR of two bitmaps (the shorter one padded with zero bytes); a NULL side is the other one.
    static func union(_ a: Data?, _ b: Data?) -> Data? {
        guard let a else { return b }
        guard let b else { return a }
        var bytes = [UInt8](repeating: 0, count: max(a.count, b.count))
        for (i, byte) in a.enumerated() { bytes[i] |= byte }
        for (i, byte) in b.enumerated() { bytes[i] |= byte }
        return Data(bytes)
    }
}
