import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// Errors say which input of the call caused them as data (`error.input`), and their messages name no option: a
/// command line maps the input to its flag. Each case pins the code, the input and the whole description, whose
/// label (`grouping:`, `sort:`) is the input's.
@Suite struct ErrorInputTests {
    private func failure(_ body: (CDStore.Context) throws -> Void) throws -> CDStoreError {
        let fixture = try CompanyFixture()
        do {
            try fixture.store.read(body)
        } catch let error as CDStoreError {
            return error
        }
        Issue.record("no error")
        return CDStoreError(.misuse, "no error")
    }

    @Test func anUngroupedPropertyIsAboutTheGrouping() throws {
        let error = try failure { ctx in _ = try ctx.project("Employee", ["lastName", "count:SELF"], groupBy: ["department.name"]) }
        #expect(error.code == .invalidInput)
        #expect(error.input == .groupBy)
        #expect(error.message == "'lastName' is neither grouped nor an aggregate: add it to the grouping or apply a function "
                + "(sum, average, count, min, max, median, stddev)")
        #expect(error.description == "entity 'Employee': grouping: " + error.message)
    }

    @Test func aFilterOnGroupsIsAboutHaving() throws {
        let syntax = try failure { ctx in _ = try ctx.project("Employee", ["count:SELF"], groupBy: ["lastName"],
                                                              having: try Criteria(parsing: "count:(SELF) >", about: .having)) }
        #expect(syntax.code == .invalidPredicate)
        #expect(syntax.input == .having)
        let ungrouped = try failure { ctx in _ = try ctx.project("Employee", ["count:SELF"], having: try Criteria("count:(SELF) > 1")) }
        #expect(ungrouped.code == .invalidInput)
        #expect(ungrouped.input == .having)
        #expect(ungrouped.description == "entity 'Employee': group filter: it filters groups, and without a grouping there "
                + "are none (filter objects with the predicate)")
    }

    @Test func aSortKeyIsAboutTheSort() throws {
        let error = try failure { ctx in _ = try ctx.fetch("Employee", matching: Criteria.all.sorted(by: ["department"])) }
        #expect(error.code == .invalidInput)
        #expect(error.input == .sort)
        #expect(error.description == "entity 'Employee': sort: 'department': it is a relationship, not an attribute")
    }

    @Test func aPredicateAndItsVariablesAreTwoInputs() throws {
        let unknown = try failure { ctx in _ = try ctx.fetch("Employee", matching: try Criteria("nope == 1")) }
        #expect(unknown.code == .unknownName)
        #expect(unknown.input == .predicate)
        #expect(unknown.description == "entity 'Employee': predicate: no attribute or relationship 'nope' in Employee")
        let unbound = try failure { ctx in _ = try ctx.fetch("Employee", matching: try Criteria("age > $minimum")) }
        #expect(unbound.code == .invalidPredicate)
        #expect(unbound.input == .variables)
        #expect(unbound.message == "variable $minimum has no value")
        // The command line's text form is about the variables too.
        let unboundText = try failure { ctx in _ = try ctx.fetch("Employee", matching: try Criteria(parsing: "age > $minimum")) }
        #expect(unboundText.code == .invalidPredicate)
        #expect(unboundText.input == .variables)
        #expect(unboundText.message.contains("$minimum"))
    }

    @Test func aRelationshipToPrefetchIsAboutIncludes() throws {
        let error = try failure { ctx in _ = try ctx.fetch("Department", matching: Criteria.all.prefetching(["employes"])) }
        #expect(error.code == .unknownName)
        #expect(error.input == .includes)
        #expect(error.description == "entity 'Department': prefetch: no relationship 'employes'; did you mean 'employees'?")
    }

    @Test func aPropertyOfAProjectionIsAboutTheProperties() throws {
        let error = try failure { ctx in _ = try ctx.project("Employee", ["summ:salary"]) }
        #expect(error.input == .properties)
        #expect(error.message.hasPrefix("unknown function 'summ:' in 'summ:salary'; did you mean 'sum'?"))
    }

    @Test func updatingANameThatIsNoAttributeIsAboutTheAssignments() throws {
        let fixture = try CompanyFixture()
        let error = #expect(throws: CDStoreError.self) {
            try fixture.store.write { ctx in _ = try ctx.update("Employee", matching: .all, set: ["salry": 1]) }
        }
        #expect(error?.code == .unknownName)
        #expect(error?.input == .assignments)
        #expect(error?.description == "entity 'Employee': update: no attribute 'salry' in Employee; did you mean 'salary'?")
    }

    @Test func creatingAStoreWithoutAModelIsAboutTheModel() throws {
        let folder = try temporaryDirectory()
        let path = folder.appendingPathComponent("new.sqlite").path
        let error = #expect(throws: CDStoreError.self) { _ = try CDStore(path: path, options: [.create]) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.input == .model)
        #expect(error?.description == "no store at \(path) (a model is needed to create one)")
    }

    /// A data file that cannot be read is bad input about the record file (``CDStoreError/Code/cannotOpen`` is
    /// about stores); it was `cannotOpen`, so `cdstore insert --file missing.json` exited 4 once insert ran on
    /// the library.
    @Test func anUnreadableDataFileIsAboutTheRecordFile() throws {
        let fixture = try CompanyFixture()
        let missing = fixture.folder.appendingPathComponent("missing.ndjson")
        let error = #expect(throws: CDStoreError.self) {
            try fixture.store.write { ctx in try ctx.insert(.file(missing), into: "Employee") }
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.input == .recordFile)
        let graph = #expect(throws: CDStoreError.self) { try fixture.store.write { ctx in try ctx.importGraph(from: missing) } }
        #expect(graph?.code == .invalidInput && graph?.input == .recordFile)
    }

    /// No message of these names an option, in the library's spelling or a command line's.
    @Test func messagesNameNoOption() throws {
        let errors = try [
            failure { ctx in _ = try ctx.project("Employee", ["lastName", "count:SELF"]) },
            failure { ctx in _ = try ctx.project("Employee", ["count:SELF"], having: try Criteria("count:(SELF) > 1")) },
            failure { ctx in _ = try ctx.project("Employee", ["count:SELF"], groupBy: ["lastName"], having: try Criteria("age > 3")) },
            failure { ctx in _ = try ctx.project("Employee", ["lastName"], matching: Criteria.all.sorted(by: ["sum:age"])) },
        ]
        for error in errors {
            #expect(error.input != nil)
            for spelling in ["groupBy", "having", "--", "includes"] {
                #expect(!error.message.contains(spelling), "\(error.message)")
            }
        }
    }
}
