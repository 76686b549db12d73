import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// The library's `verify()` and `repair()`: what `cdstore verify [--repair]` runs.
@Suite("Verify and repair through the library")
struct VerifyTests {
    @Test func aLaggingZMaxIsAProblemThatRepairFixes() throws {
        let fixture = try CompanyFixture()
        #expect(try fixture.store.verify() == [])
        // Another tool's rows: Z_MAX left behind the largest key.
        let damaged = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Employee'")
            db.commit()
            """, [fixture.path])
        #expect(damaged.status == 0, "\(damaged.stderr)")
        let store = try CDStore(path: fixture.path, model: .path(CompanyFixture.modelPath))
        let problems = try store.verify()
        #expect(problems.map(\.kind) == [.maxPrimaryKey] && problems.map(\.severity) == [.problem], "\(problems)")
        #expect(try store.repair().map(\.description) == ["maxPrimaryKey: Employee: Z_MAX 1 → 4, the largest Z_PK in ZEMPLOYEE"])
        #expect(try store.verify() == [])
        #expect(try store.repair() == [])
    }

    @Test func repairOfAReadOnlyStoreIsRefused() throws {
        let fixture = try CompanyFixture()
        let store = try CDStore(path: fixture.path, model: .path(CompanyFixture.modelPath), options: [.readOnly])
        #expect { try store.repair() } throws: { ($0 as? CDStoreError)?.code == .readOnly }
    }
}
