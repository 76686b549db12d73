/// The objects that existed before a write transaction and whose rows it changed, for their `Z_OPT` and for
/// persistent history. New objects are not listed (the key allocator knows them by their key range), so that
/// memory stays flat however many are inserted.
///
/// What the record being inserted touches is pending until the record is stored (``keep()``) or rolled back
/// (``forget()``): a record that fails leaves no trace.
struct TouchedObjects {
    /// What the records stored so far touched.
    private(set) var kept: Set<ObjectRef> = []
    private var pending: Set<ObjectRef> = []

    mutating func insert(_ object: ObjectRef) {
        pending.insert(object)
    }

    /// The record just inserted is stored: what it touched counts.
    mutating func keep() {
        guard !pending.isEmpty else { return }
        kept.formUnion(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// The record just inserted was rolled back: what it touched is gone with it.
    mutating func forget() {
        pending.removeAll(keepingCapacity: true)
    }
}
