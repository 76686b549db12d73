import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// What commands do beyond parsing and printing, as library calls a Swift user makes: seeding a store, removing
/// one, history filters, criteria that leave out sub-entities or prefetch, and errors that say which input caused
/// them.
@Suite struct FrontDoorTests {
    static let model = CompanyFixture.modelPath

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    @Test func seedBuildsAStoreFromEntityFilesAndSaysWhatEachAdded() throws {
        let folder = try temporaryDirectory()
        let company = folder.appendingPathComponent("Company.json")
        let employees = folder.appendingPathComponent("Employee.csv")
        try write(#"[{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Acme"}]"#, to: company)
        try write("employeeNumber,firstName,lastName\n1,Ann,Moreau\n2,Bo,Li\n", to: employees)
        let path = folder.appendingPathComponent("Seed.sqlite").path
        let added = try CDStore.seed(at: path, model: .path(Self.model), uuid: "1b6f2c0e-3f1a-4c38-9a8b-0d2e4f6a8c10",
                                     from: [company.path, employees.path])
        #expect(added.map { "\($0.file.split(separator: "/").last!) \($0.entity ?? "-") \($0.summary.inserted)" }
                == ["Company.json Company 1", "Employee.csv Employee 2"])
        let store = try CDStore(path: path, options: [.readOnly])
        #expect(store.storeUUID == "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10")
        #expect(try store.read { ctx in try ctx.fetch("Employee", matching: Criteria.all.sorted(by: ["employeeNumber"])).map { $0.get("firstName", as: String.self) } }
                == ["Ann", "Bo"])
        #expect(try store.verify().isEmpty)
        // One file, no WAL: a store to bundle.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aSeedThatFailsLeavesNoStoreAndNamesTheFileAndRecord() throws {
        let folder = try temporaryDirectory()
        let employees = folder.appendingPathComponent("Employee.ndjson")
        try write(#"{"employeeNumber": 1, "firstName": "Ann", "lastName": "Moreau"}"# + "\n"
                  + #"{"employeeNumber": 2, "firstName": "Bo"}"# + "\n", to: employees)
        let path = folder.appendingPathComponent("Seed.sqlite").path
        do {
            try CDStore.seed(at: path, model: .path(Self.model), from: [employees.path])
            Issue.record("the seed did not fail")
        } catch let error as CDStoreError {
            #expect(error.code == .missingValue)
            #expect(error.input == .recordFile)
            #expect(error.file == employees.path)
            #expect(error.record == 2)
            #expect(error.description == "\(employees.path): record 2 (line 2): entity 'Employee', attribute 'lastName': "
                    + "a value is required (the attribute is not optional)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func seedRefusesAnExistingStore() throws {
        let fixture = try CompanyFixture()
        let error = #expect(throws: CDStoreError.self) {
            try CDStore.seed(at: fixture.path, model: .path(Self.model), from: [])
        }
        #expect(error?.code == .cannotOpen)
        #expect(error?.description == "\(fixture.path) exists")
        #expect(FileManager.default.fileExists(atPath: fixture.path))
    }

    @Test func destroyStoreRemovesTheStoreAndItsCompanions() throws {
        let folder = try temporaryDirectory()
        let path = folder.appendingPathComponent("Gone.sqlite").path
        for suffix in ["", "-wal", "-shm", "-journal"] { try write("x", to: URL(fileURLWithPath: path + suffix)) }
        try write("keep", to: folder.appendingPathComponent("Other.sqlite"))
        CDStore.destroyStore(at: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Other.sqlite"])
        CDStore.destroyStore(at: path)   // nothing left to remove: no error
    }

    @Test func criteriaLeaveOutSubentitiesAndPrefetch() throws {
        let fixture = try CompanyFixture()
        try fixture.store.write { ctx in
            _ = try ctx.insert("Manager", ["firstName": "Mia", "lastName": "Stone", "employeeNumber": 9, "level": 2,
                                           "department": fixture.sales])
        }
        try fixture.store.read { ctx in
            let everyone = Criteria.all.sorted(by: ["employeeNumber"])
            #expect(try ctx.fetch("Employee", matching: everyone).map(\.entity)
                    == ["Employee", "Employee", "Employee", "Employee", "Manager"])
            #expect(try ctx.fetch("Employee", matching: everyone.excludingSubentities()).count == 4)
            #expect(try ctx.count("Employee", matching: .greaterThanOrEqual("employeeNumber", 4).excludingSubentities()) == 1)
            // Combining keeps the narrower choice.
            #expect(try ctx.count("Employee", matching: .greaterThanOrEqual("employeeNumber", 4) && Criteria.all.excludingSubentities()) == 1)
            let sales = try ctx.fetch("Department", matching: Criteria.equal("name", "Sales").prefetching(["employees"]))
            #expect(sales.count == 1)
            #expect(sales[0]["employees"]?.description.contains("Mia") == true)
            #expect(Criteria.equal("name", "Sales").prefetching(["employees"]) != Criteria.equal("name", "Sales"))
        }
    }

    @Test func aPredicateErrorSaysItCameFromThePredicate() throws {
        let error = #expect(throws: CDStoreError.self) { try Criteria("age >>> 3") }
        #expect(error?.code == .invalidPredicate)
        #expect(error?.input == .predicate)
        #expect(error?.column == 6)
        #expect(error?.description == "predicate: unexpected '>' at column 6\n  age >>> 3\n       ^")
    }

    @Test func historyOfAStoreWithoutItIsEmpty() throws {
        let fixture = try CompanyFixture()
        #expect(try fixture.store.hasPersistentHistory == false)
        #expect(try fixture.store.history(since: Date(timeIntervalSinceReferenceDate: 0), author: "app", entity: "Employee",
                                          limit: 10).isEmpty)
    }
}

/// `history` gives transactions with their changes, paged by transaction number.
@Suite struct HistoryValueTests {
    @Test func eachTransactionComesWithItsChangesAndPagesByItsNumber() throws {
        let folder = try temporaryDirectory()
        let model = try HistoryFixture.writeModel(in: folder)
        let path = folder.appendingPathComponent("History.sqlite").path
        _ = try CDStore(path: path, model: .path(model), options: [.create])
        try HistoryFixture.execute(HistoryFixture.tables + HistoryFixture.rows, on: path)
        let store = try CDStore(path: path, model: .path(model), options: [.readOnly])
        let all = try store.history(limit: 10)
        #expect(all.map(\.number) == [1, 2, 5])
        #expect(all.map(\.changes.count) == [3, 3, 3])
        #expect(all.allSatisfy { transaction in transaction.changes.allSatisfy { $0.transaction == transaction.number } })
        let page = try store.history(after: 1, limit: 1)
        #expect(page.map(\.number) == [2] && page[0].changes == all[1].changes)
    }
}

/// `compare(with:…)`: objects matched by key across two stores, with the settings as parameters.
@Suite struct StoreComparisonValueTests {
    @Test func aChangedSalaryIsTheOneDifferenceAndIgnoringItLeavesNone() throws {
        let before = try CompanyFixture(), after = try CompanyFixture()
        let updated = try after.store.write { ctx in
            try ctx.update("Employee", matching: .equal("firstName", "Bo"), set: ["salary": 70_000])
        }
        #expect(updated == 1)
        var differences: [ObjectDifference] = []
        let comparison = try before.store.compare(with: after.store, entities: ["Employee"], matching: .greaterThan("age", 30),
                                                  ignoring: ["department"])
        // Employee's sub-entity comes with it; both are keyed by Employee's uniqueness constraint.
        #expect(comparison.plannedEntities.map(\.entity) == ["Employee", "Manager"] && comparison.modelChanges.isEmpty)
        #expect(comparison.plannedEntities.allSatisfy { $0.key == .uniquenessConstraint(["employeeNumber"]) })
        let counts = try comparison.run { differences.append($0) }
        #expect(counts.map(\.changed) == [1, 0] && counts.map(\.same) == [2, 0])
        #expect(differences.map(\.change) == [.changed])
        #expect(differences.first?.fields.map(\.name) == ["salary"])
        #expect(differences.first?.fields.first.map { "\($0.a.plainText) → \($0.b.plainText)" } == "65000 → 70000")
        let ignoring = try before.store.compare(with: after.store, entities: ["Employee"], ignoring: ["department", "salary"])
        #expect(try ignoring.run().allSatisfy { !$0.differs })
    }
}

/// `diagram(around:depth:)` gives what is drawn as values; Mermaid and DOT are two ways to write it.
@Suite struct ModelDiagramValueTests {
    @Test func aNeighbourhoodHoldsTheEntitiesLinksAndInheritanceDrawn() throws {
        let model = try ModelFile(contentsOf: CompanyFixture.modelPath).model
        let diagram = try model.diagram(around: "Manager", depth: 1)
        // One step: the parent, and the department a manager manages.
        #expect(diagram.entities.map(\.name) == ["Department", "Employee", "Manager"])
        #expect(diagram.inheritance.map { "\($0.child) is a \($0.parent)" } == ["Manager is a Employee"])
        // Each inverse pair is one line, from the entity declared first.
        #expect(diagram.links.map { "\($0.source).\($0.relationship.name) → \($0.destination).\($0.inverse?.name ?? "-")" }
                == ["Department.employees → Employee.department", "Department.manager → Manager.managedDepartment"])
        #expect(diagram.mermaid().hasPrefix("erDiagram\n"))
        #expect(diagram.dot().hasPrefix("digraph model {"))
        let whole = try model.diagram()
        #expect(whole.entities.map(\.name) == model.entities.map(\.name))
        let department = try #require(whole.links.first { $0.source == "Company" && $0.relationship.name == "departments" })
        #expect(department.destination == "Department" && department.inverse?.name == "company")
    }

    @Test func anUnknownEntityIsAnUnknownNameWithSuggestions() throws {
        let model = try ModelFile(contentsOf: CompanyFixture.modelPath).model
        let error = #expect(throws: CDStoreError.self) { try model.diagram(around: "Employe") }
        #expect(error?.code == .unknownName)
        #expect(error?.entity == "Employe")
        #expect(error?.message.contains("Employee") == true)
    }
}
