import CDStorePredicate
import Foundation
internal import GRDB

/// The SQL functions Core Data registers on its own connections and calls from the triggers it puts in a store,
/// registered on cdstore's connection to a store whose triggers call them, so that writing to those tables works
/// and computes what Core Data would.
///
/// - Derived attributes (`NSDerivedAttributeDescription`) are kept by triggers that set the column from
///   `NSCoreDataToLower(…)`, `NSCoreDataToUpper(…)`, `NSCoreDataCanonical(…)` or `NSCoreDataNow()`: these compute
///   the value, as `lowercase:`, `uppercase:` and `canonical:` evaluate in a predicate and `now()` as the time of
///   the write (seconds since 2001, the Date column's form).
/// - The triggers then report the new value to Core Data's contexts (`NSCoreDataDATrigger…AffectedObjectValue`,
///   `NSCoreDataTriggerUpdateAffectedObjectValue`), and persistent history's triggers call their own helpers:
///   there is nothing to report to here, so these answer NULL, which the triggers' `SELECT` discards.
/// - A function known to compute a stored value that cdstore cannot (`NSCoreDataDATriggerMergeableString`) is not
///   registered, so that the write fails with SQLite's "no such function" naming it rather than storing NULL.
enum CoreDataTriggerFunctions {
    static let valueFunctions: [String: @Sendable (String) -> String] = [
        "NSCoreDataToLower": { $0.lowercased() },
        "NSCoreDataToUpper": { $0.uppercased() },
        "NSCoreDataCanonical": { PredicateStringMatching.fold($0, options: [.caseInsensitive, .diacriticInsensitive]) },
    ]
    static let now = "NSCoreDataNow"
    static let uncomputable: Set<String> = ["NSCoreDataDATriggerMergeableString"]

    /// Registers, on `db`, the functions among `names` (as the store's triggers spell them).
    static func register(_ names: Set<String>, on db: Database) {
        for name in names.sorted() {
            if let transform = valueFunctions.first(where: { $0.key.caseInsensitiveCompare(name) == .orderedSame })?.value {
                ExactFunction.register(on: db, name, argumentCount: 1) { values in
                    guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
                    return transform(text)
                }
            } else if name.caseInsensitiveCompare(now) == .orderedSame {
                db.add(function: DatabaseFunction(name, argumentCount: 0, pure: false) { _ in Date().timeIntervalSinceReferenceDate })
            } else if !uncomputable.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                db.add(function: DatabaseFunction(name, argumentCount: nil, pure: false) { _ in nil })
            }
        }
    }
}
