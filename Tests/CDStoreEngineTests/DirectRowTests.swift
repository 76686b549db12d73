import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import GRDB
import Testing
@testable import CDStoreEngine

/// A flat row made straight from a record's fields (``EntityWritePlan/directRow(_:)``) is the row sorting the
/// fields first gives, and records it cannot take are left to sorting.
@Suite("Rows made without sorting fields")
struct DirectRowTests {
    static func plan() throws -> (EntityWritePlan, ManagedObjectModel) {
        let model = try Org.jsonModel(#"""
            [{"name": "Person", "attributes": [{"name": "name", "type": "String", "minValue": "2"},
                                               {"name": "age", "type": "Integer 16", "optional": true},
                                               {"name": "score", "type": "Double", "default": "1.5"}],
              "relationships": [{"name": "team", "destination": "Team", "inverse": "members", "optional": true}]},
             {"name": "Team", "attributes": [{"name": "title", "type": "String"}],
              "relationships": [{"name": "members", "destination": "Person", "inverse": "team", "toMany": true}]}]
            """#)
        let store = try Org.store(model, name: "DirectRow.sqlite")
        return (try EntityWritePlan(entity: model.entity(named: "Person")!, store: store, options: InsertSettings()), model)
    }

    static func sortedRow(_ plan: (EntityWritePlan, ManagedObjectModel), _ fields: [(String, InputValue)]) throws
        -> [DatabaseValue]
    {
        try plan.0.row(plan.0.sort(fields, model: plan.1), validatingMissing: true)
    }

    @Test func sameRowAsSortingOnceTheKeysAreKnown() throws {
        let planned = try Self.plan()
        let plan = planned.0
        let first: [(String, InputValue)] = [("age", .string("41")), ("name", .string("Ann")), ("score", .string("2.25"))]
        // Nothing sorted yet: the plan does not know these keys.
        #expect(try plan.directRow(first) == nil)
        let expected = try Self.sortedRow(planned, first)
        #expect(try plan.directRow(first) == expected)
        let next: [(String, InputValue)] = [("age", .null), ("name", .string("Bob")), ("score", .double(-0.5))]
        #expect(try plan.directRow(next) == (try Self.sortedRow(planned, next)))
        // Left-out attributes take their defaults, as sorted rows do.
        let partial: [(String, InputValue)] = [("name", .string("Cy"))]
        _ = try Self.sortedRow(planned, partial)
        #expect(try plan.directRow(partial) == ["Cy".databaseValue, .null, 1.5.databaseValue])
    }

    @Test func recordsWithOtherKeysOrRelationshipsAreLeftToSorting() throws {
        let planned = try Self.plan()
        let plan = planned.0
        let fields: [(String, InputValue)] = [("name", .string("Ann")), ("age", .integer(3))]
        _ = try Self.sortedRow(planned, fields)
        #expect(try plan.directRow([("age", .integer(3)), ("name", .string("Ann"))]) == nil)
        #expect(try plan.directRow([("name", .string("Ann")), ("agee", .integer(3))]) == nil)
        let withTeam: [(String, InputValue)] = [("name", .string("Ann")), ("team", .null)]
        _ = try plan.sort(withTeam, model: planned.1)
        #expect(try plan.directRow(withTeam) == nil)
        let withEntity: [(String, InputValue)] = [("name", .string("Ann")), ("_entity", .string("Person"))]
        _ = try plan.sort(withEntity, model: planned.1)
        #expect(try plan.directRow(withEntity) == nil)
    }

    @Test func refusedValuesGiveTheSortedPathsError() throws {
        let planned = try Self.plan()
        let plan = planned.0
        let good: [(String, InputValue)] = [("name", .string("Ann")), ("age", .string("4"))]
        _ = try Self.sortedRow(planned, good)
        for bad: [(String, InputValue)] in [[("name", .string("A")), ("age", .string("4"))],
                                             [("name", .string("Ann")), ("age", .string("40000"))]] {
            var direct: StoreError?
            do { _ = try plan.directRow(bad) } catch let error as StoreError { direct = error }
            var sorted: StoreError?
            do { _ = try Self.sortedRow(planned, bad) } catch let error as StoreError { sorted = error }
            #expect(direct != nil)
            #expect(direct?.description == sorted?.description)
        }
    }
}
