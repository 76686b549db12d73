import CDStoreEngine
import Foundation

extension CDStore {
    /// The moment `text` names in the forms records give dates (`2024-05-01`, `2024-05-01T12:00:00Z`,
    /// `2024-05-01T12:00:00.250+02:00`, or seconds since 2001-01-01 as Core Data stores them); nil when it names
    /// none. `cdstore history --since` reads its dates so.
    public static func date(fromText text: String) -> Date? {
        DateParsing.secondsSince2001(text).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}
