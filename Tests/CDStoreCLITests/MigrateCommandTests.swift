import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore migrate`, `--no-migrate`, automatic migration on open and `cdstore model diff`.
@Suite("migrate and model diff commands")
struct MigrateCommandTests {
    static let staff = Corpus.schemas.appendingPathComponent("Staff.xcdatamodeld").path

    /// A version-1 store made through the command line.
    func version1Store() throws -> String {
        let store = try temporaryDirectory().appendingPathComponent("staff.sqlite").path
        let json = #"""
            [{"name":"R&D","employees":[{"name":"Ann","age":30,"score":3.0,"_entity":"Employee","badge":{"code":"B1"},
              "projects":[{"title":"Apollo"}]},{"name":"Bo","_entity":"Contractor","agency":"Acme"}]},{"name":"Ops"}]
            """#
        let result = try CLIRunner.run(["insert", "Department", "--json", json, "--store", store, "--model", Self.staff,
                                        "--model-version", "Staff"])
        #expect(result.status == 0, "\(result.stderr)")
        return store
    }

    func run(_ arguments: [String], store: String) throws -> ProcessResult {
        try CLIRunner.run(arguments + ["--store", store, "--model", Self.staff])
    }

    func backups(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent).filter { $0.contains(".backup-") }
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() throws {
        let store = try version1Store()
        let before = FileManager.default.contents(atPath: store)
        let result = try run(["migrate", "--dry-run"], store: store)
        #expect(result.status == 0, "\(result.stderr)")
        // Each step and its changes with their SQL statement counts (MigrationTests reads the same file), then the
        // dry-run line.
        let plan = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Tests/Snapshots/migrate-staff-plan.txt"), encoding: .utf8)
        #expect(plan.hasPrefix("step \"Staff\" → \"Staff 2\" (inferred): 18 changes, "))
        // The library's fixture has a Legacy object, which the plan says is dropped; this store has none.
        let dropped = "  !! Legacy: 1 objects dropped — no entity mapping takes them\n"
        #expect(plan.contains(dropped))
        #expect(result.stdout == plan.replacingOccurrences(of: dropped, with: "") + "dry run: the store was not changed\n")
        #expect(FileManager.default.contents(atPath: store) == before)
        #expect(try backups(store).isEmpty)
    }

    @Test func migrateRunsThePlanWithABackup() throws {
        let store = try version1Store()
        let plan = try run(["migrate", "--dry-run"], store: store).stdout
        let result = try run(["migrate"], store: store)
        #expect(result.status == 0, "\(result.stderr)")
        // The plan the dry run printed, then where the store and its backup are.
        let planned = plan.replacingOccurrences(of: "dry run: the store was not changed\n", with: "")
        #expect(planned != plan && result.stdout.hasPrefix(planned), "\(result.stdout)")
        let last = String(result.stdout.dropFirst(planned.count))
        #expect(last.wholeMatch(of: try Regex("migrated \\Q\(store)\\E; backup at \\Q\(store)\\E\\.backup-[0-9]{8}-[0-9]{6}\n")) != nil,
                "\(last)")
        #expect(try backups(store).count >= 1)
        #expect(try run(["verify"], store: store).stdout == "ok\n")
        #expect(try run(["count", "Person"], store: store).stdout == "1\n")
        #expect(try run(["count", "Contractor"], store: store).stdout == "1\n")
        let again = try run(["migrate"], store: store)
        #expect(again.stdout == "the store already matches the model; nothing to migrate\n")
    }

    @Test func noMigrateRefusesWithTheDifferencesAndExit3() throws {
        let store = try version1Store()
        let before = FileManager.default.contents(atPath: store)
        let result = try run(["count", "Person", "--no-migrate"], store: store)
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("error: --no-migrate: the store was saved with a different model (Core Data error 134100) and migration is off: "))
        // Every difference from the store's model, one per line; without the versions' mapping a rename shows as
        // an attribute added and one removed (Person.displayName, Person.name).
        try assertSnapshot(Sandbox.anonymized(result.stderr), named: "migrate-no-migrate.txt")
        #expect(FileManager.default.contents(atPath: store) == before)
    }

    @Test func writingCommandsMigrateAutomaticallyAndNoBackupSkipsTheCopy() throws {
        let store = try version1Store()
        let result = try run(["insert", "Person", "displayName=Di", "--no-backup"], store: store)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("warning: migrated the store (\"Staff\" → \"Staff 2\", \"Staff 2\" → \"Staff 3\", \"Staff 3\" → \"Staff 4\")\n"))
        #expect(try backups(store).isEmpty)
        #expect(try run(["count", "Person"], store: store).stdout == "2\n")
    }

    @Test func readOnlyCommandsDoNotMigrate() throws {
        let store = try version1Store()
        let before = FileManager.default.contents(atPath: store)
        let verify = try run(["verify"], store: store)
        #expect(verify.status == 0)
        #expect(verify.stderr == "warning: the store was saved with \"Staff\", not with the model given; read with that version, without migrating\n")
        let fetch = try run(["count", "Person", "--read-only"], store: store)
        #expect(fetch.stdout == "2\n")
        #expect(FileManager.default.contents(atPath: store) == before)
        // Commands that only read never migrate, even without --read-only.
        for command in [["count", "Person"], ["fetch", "Person"], ["export"]] {
            let result = try run(command, store: store)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(FileManager.default.contents(atPath: store) == before, "\(command) changed the store")
        }
    }

    @Test func migrateRefusesWhatCannotBeInferred() throws {
        let store = try temporaryDirectory().appendingPathComponent("mwk.sqlite").path
        let bundle = Corpus.models.appendingPathComponent("mwkirk__MWKCoreData__MWKCoreDataTests.xcdatamodeld").path
        #expect(try CLIRunner.run(["insert", "Employee", "name=Ann", "--store", store, "--model", bundle,
                                   "--model-version", "MWKCoreDataTests2"]).status == 0)
        let result = try CLIRunner.run(["migrate", "--store", store, "--model", bundle, "--model-version", "MWKCoreDataTests3"])
        #expect(result.status == 3)
        #expect(result.stderr == """
            error: cannot migrate the store from "MWKCoreDataTests2" to "MWKCoreDataTests3" (Core Data error 134190): \
            entity 'Employee', attribute 'firstName' becomes non-optional without a default value and 1 rows are NULL; \
            entity 'Employee', attribute 'lastName' becomes non-optional without a default value and 1 rows are NULL; the store is unchanged

            """)
    }

    /// Moonlight's later versions give an Integer 32 the default 'YES', which momc reads as 0: the store migrates
    /// through every version and verifies.
    @Test func aDefaultXcodeAcceptsDoesNotBlockMigration() throws {
        let store = try temporaryDirectory().appendingPathComponent("moonlight.sqlite").path
        let bundle = Corpus.models.appendingPathComponent("moonlight-stream__moonlight-ios__Limelight.xcdatamodeld").path
        #expect(try CLIRunner.run(["count", "Host", "--store", store, "--model", bundle, "--model-version", "Limelight"]).status == 0)
        let result = try CLIRunner.run(["migrate", "--store", store, "--model", bundle, "--no-backup"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CLIRunner.run(["verify", "--store", store, "--model", bundle]).stdout == "ok\n")
    }

    /// Writing with an earlier version of the store's model is refused instead of migrating the store backwards.
    @Test func anOlderModelVersionIsNotAMigrationTarget() throws {
        let store = try temporaryDirectory().appendingPathComponent("staff.sqlite").path
        #expect(try CLIRunner.run(["count", "Person", "--store", store, "--model", Self.staff]).status == 0)
        let before = storeBytes(store)
        let result = try CLIRunner.run(["insert", "Person", "name=Ann", "--store", store, "--model", Self.staff,
                                        "--model-version", "Staff"])
        #expect(result.status == 3)
        #expect(result.stderr == """
            error: the store was saved with "Staff 4", a later version than the model given ("Staff"); \
            cdstore does not migrate a store back to an earlier version (Core Data error 134100)

            """)
        #expect(storeBytes(store) == before)
    }

    @Test func modelDiffPrintsOneLinePerChange() throws {
        let result = try CLIRunner.run(["model", "diff", Self.staff, "--from-version", "Staff 3", "--to-version", "Staff 4"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            attribute removed: Department.code
            attribute renamed: Person.displayName (was fullName)
            attribute type changed: Person.score (Integer 64 → String)
            fetch index changed: Person.byName
            entity added: Review

            """)
        let none = try CLIRunner.run(["model", "diff", Self.staff, Self.staff])
        #expect(none.status == 0 && none.stdout.isEmpty)
    }
}
