/// Property names Core Data refuses, because generated accessors would override a method every managed
/// object has. Xcode reports "… is a reserved name" for them and `NSEntityDescription` rejects them at run
/// time.
///
/// The list holds the argument-less methods and properties of `NSObject` (protocol included) and
/// `NSManagedObject` that a property accessor would replace. It deliberately leaves out common names that
/// Core Data accepts and real models use, such as `id`, `type`, `value`, `version`, `context`, `name` and
/// `data` (all found in the corpus, compiled by Xcode). `inserted`, `updated`, `deleted` and `fault` are not
/// reserved either: `NSManagedObject` declares them as properties whose getters are `isInserted`, `isUpdated`,
/// `isDeleted` and `isFault`, so no method of those names exists for an accessor to replace, and Simplenote's
/// shipped model (saved by Xcode 15) has an attribute `deleted`.
package enum ReservedNames {
    /// Reserved name → the class whose member it would replace.
    package static let all: [String: String] = {
        var names: [String: String] = [:]
        for name in [
            "class", "self", "superclass", "description", "debugDescription", "hash", "zone", "retainCount",
            "autorelease", "retain", "release", "init", "copy", "mutableCopy", "dealloc", "finalize", "isProxy",
            "observationInfo", "classForCoder", "classForKeyedArchiver", "autoContentAccessingProxy",
        ] { names[name] = "NSObject" }
        for name in [
            "entity", "objectID", "managedObjectContext", "isInserted", "isUpdated", "isDeleted", "isFault",
            "hasChanges", "hasPersistentChangedValues", "faultingState",
            "changedValues", "changedValuesForCurrentEvent", "committedValues", "awakeFromFetch", "awakeFromInsert",
            "willSave", "didSave", "willTurnIntoFault", "didTurnIntoFault", "validateForInsert", "validateForUpdate",
            "validateForDelete", "prepareForDeletion",
        ] { names[name] = "NSManagedObject" }
        return names
    }()
}
