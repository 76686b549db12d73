import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// Files in and out through the library: records from NDJSON and CSV, whole graphs exported and imported.
@Suite struct ImportExportTests {
    @Test func insertFromNDJSONAndCSV() throws {
        let fixture = try CompanyFixture()
        let ndjson = fixture.folder.appendingPathComponent("people.ndjson")
        try Data("""
            {"employeeNumber": 10, "firstName": "Gil", "lastName": "Roy", "department": {"_ref": {"name": "Sales"}}}
            {"employeeNumber": 11, "firstName": "Hal", "lastName": "Ito"}

            """.utf8).write(to: ndjson)
        let csv = fixture.folder.appendingPathComponent("people.csv")
        try Data("employeeNumber,firstName,lastName,age\n12,Ida,Kay,40\n".utf8).write(to: csv)
        #expect(try fixture.store.write { ctx in try ctx.insert(.file(ndjson, format: .ndjson), into: "Employee") }.inserted == 2)
        #expect(try fixture.store.write { ctx in try ctx.insert(.file(csv), into: "Employee") }.inserted == 1)
        try fixture.store.read { ctx throws in
            #expect(try ctx.count("Employee") == 7)
            #expect(try ctx.fetchOne("Employee", matching: try Criteria("employeeNumber == 10"))?.related("department") == fixture.sales)
            #expect(try ctx.fetchOne("Employee", matching: try Criteria("employeeNumber == 12"))?.int("age") == 40)
        }
    }

    @Test func badRecordNamesItsLine() throws {
        let fixture = try CompanyFixture()
        let ndjson = fixture.folder.appendingPathComponent("bad.ndjson")
        try Data("{\"employeeNumber\": 20, \"firstName\": \"A\", \"lastName\": \"B\"}\n{\"employeeNumber\": 21, \"firstName\": \"C\", \"lastName\": \"D\", \"age\": 5}\n".utf8)
            .write(to: ndjson)
        do {
            try fixture.store.write { ctx in _ = try ctx.insert(.file(ndjson, format: .ndjson), into: "Employee") }
            Issue.record("inserted an invalid record")
        } catch let error as CDStoreError {
            #expect(error.code == .validation)
            #expect(error.record == 2)
            #expect(error.line == 2)
            #expect(error.property == "age")
        }
        #expect(try fixture.store.read { try $0.count("Employee") } == 4)
    }

    @Test(arguments: [GraphExport.Shape.document, .ndjson])
    func graphRoundTrip(_ shape: GraphExport.Shape) throws {
        let fixture = try CompanyFixture()
        let file = fixture.folder.appendingPathComponent("graph.export")
        var bytes: [UInt8] = []
        #expect(try fixture.store.read { ctx in try ctx.exportGraph(as: shape) { bytes.append(contentsOf: $0) } } == 7)
        try Data(bytes).write(to: file)
        let folder = try temporaryDirectory()
        let copy = try CDStore(path: folder.appendingPathComponent("Copy.sqlite").path, model: .path(CompanyFixture.modelPath),
                               options: [.create])
        #expect(try copy.write { ctx in try ctx.importGraph(from: file) } == 7)
        let names = try copy.read { ctx throws in
            try ctx.fetch("Employee", matching: try Criteria("department.name == %@", "R&D").sorted(by: ["employeeNumber"])).map { $0.string("firstName") }
        }
        #expect(names == ["Ann", "Bo", "Chidi"])
    }
}
