import CDStoreModel
import CDStorePredicate
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// `Store.update`: literal and expression values, Z_OPT, dry runs, and every validation failure leaving the store
/// byte for byte as it was.
@Suite struct UpdateTests {
    let fixture: PayrollFixture
    var store: Store { fixture.store }
    let people = PayrollFixture.people

    init() throws { fixture = try PayrollFixture() }

    func update(_ predicate: String?, _ assignments: [String], dryRun: Bool = false, exact: Bool = false) throws -> Int {
        try store.update(UpdateRequest(entity: "Employee", predicate: try predicate.map { try PredicateParserShim.parse($0) },
                                       assignments: try assignments.map(UpdateAssignment.init(parsing:)),
                                       includesSubentities: !exact), dryRun: dryRun)
    }

    /// employeeNumber → (values of `keys`, Z_OPT), read with plain SQL.
    func state(_ keys: [String]) throws -> [Int64: ([ObjectValue], Int64)] {
        let employee = store.model.entity(named: "Employee")!
        let layout = store.layout.entity(named: "Employee")!
        let columns = keys.map { layout.attributeColumns[$0]! }
        let attributes = keys.map { store.model.attribute($0, of: employee)! }
        return try DatabaseQueue(path: store.path).read { db in
            var result: [Int64: ([ObjectValue], Int64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT ZEMPLOYEENUMBER, Z_OPT, \(columns.joined(separator: ", ")) FROM \(layout.table)") {
                let values = attributes.enumerated().map { AttributeCoding.objectValue(row[2 + $0.offset], for: $0.element) }
                result[row[0]] = (values, row[1])
            }
            return result
        }
    }

    func person(_ number: Int64) -> PayrollFixture.Person { people.first { $0.number == number }! }

    // MARK: - Values

    @Test func literalValuesAndZOPT() throws {
        let before = try state(["isActive"])
        #expect(try update("department.name == 'Sales'", ["isActive=true", "age=30"]) == 2)
        let after = try state(["isActive", "age"])
        for p in people {
            let sales = p.department == "Sales"
            #expect(after[p.number]!.0[0] == .bool(sales ? true : p.active))
            #expect(after[p.number]!.0[1] == (sales ? .integer(30) : p.age.map { .integer($0) } ?? .null))
            #expect(after[p.number]!.1 == before[p.number]!.1 + (sales ? 1 : 0), "Z_OPT of \(p.first)")
        }
        #expect(try update("department.name == 'Sales'", ["age=31"]) == 2)
        #expect(try state(["age"])[4]!.1 == before[4]!.1 + 2)
    }

    @Test func expressionsAreEvaluatedPerObject() throws {
        #expect(try update("salary != nil", ["salary=salary * 1.05", "age=age + 1"]) == people.filter { $0.salary != nil }.count)
        let after = try state(["salary", "age"])
        for p in people {
            let changed = p.salary != nil
            #expect(after[p.number]!.0[0] == (p.salary.map { .decimal($0 * 1.05) } ?? .null), "\(p.first)")
            let age = changed ? p.age.map { $0 + 1 } : p.age
            #expect(after[p.number]!.0[1] == (age.map { .integer($0) } ?? .null), "\(p.first)")
        }
    }

    @Test func expressionsWithKeyPathsFunctionsAndNil() throws {
        #expect(try update("department != nil", ["lastName:=uppercase:(department.name)", "email:=nil", "age=nil"]) == 7)
        let after = try state(["lastName", "email", "age"])
        for p in people where p.department != nil {
            #expect(after[p.number]!.0 == [.string(p.department!.uppercased()), .null, .null])
        }
        #expect(after[8]!.0 == [.string("Lee"), .string("gus@acme.com"), .integer(34)])
    }

    @Test func datesLiteralAndComputed() throws {
        #expect(try update("employeeNumber == 1", ["hiredAt=2024-05-01T12:30:00Z"]) == 1)
        #expect(try state(["hiredAt"])[1]!.0 == [.date(DateParsing.secondsSince2001("2024-05-01T12:30:00Z")!)])
        let before = Date().timeIntervalSinceReferenceDate
        #expect(try update("employeeNumber == 2", ["hiredAt=now()"]) == 1)
        guard case .date(let seconds) = try state(["hiredAt"])[2]!.0[0] else { Issue.record("not a date"); return }
        #expect(seconds >= before - 1 && seconds <= Date().timeIntervalSinceReferenceDate + 1)
        #expect(try update("employeeNumber == 3", ["hiredAt:=hiredAt + 86400"]) == 1)
        #expect(try state(["hiredAt"])[3]!.0 == [.date(person(3).hiredSeconds + 86400)])
    }

    @Test func subEntitiesAndExactEntity() throws {
        #expect(try update(nil, ["rating=1"]) == people.count)
        #expect(try update(nil, ["rating=2"], exact: true) == people.filter { $0.level == nil }.count)
        let after = try state(["rating"])
        for p in people { #expect(after[p.number]!.0 == [.double(p.level == nil ? 2 : 1)]) }
        let managers = try store.update(UpdateRequest(entity: "Manager", predicate: nil,
                                                      assignments: [UpdateAssignment("level", .expression(.keyPath("level")))]))
        #expect(managers == 2)
    }

    @Test func uniqueValuesMayMoveBetweenChangedObjects() throws {
        #expect(try update(nil, ["employeeNumber=employeeNumber + 1"]) == people.count)
        #expect(Set(try state(["age"]).keys) == Set(people.map { $0.number + 1 }))
    }

    @Test func dryRunCountsAndChangesNothing() throws {
        let bytes = storeBytes(store.path)
        let before = try state(["salary"])
        #expect(try update("age > 30", ["salary=salary * 2"], dryRun: true) == people.filter { ($0.age ?? 0) > 30 }.count)
        #expect(storeBytes(store.path) == bytes)
        #expect(try state(["salary"]).mapValues { $0.0 } == before.mapValues { $0.0 })
        // A dry run validates too.
        let error = #expect(throws: StoreError.self) { try update(nil, ["age=500"], dryRun: true) }
        #expect(error?.code == .invalidInput)
        #expect(error?.description
                == "entity 'Employee', attribute 'age': x-coredata://\(store.metadata.uuid)/Employee/p1: 500 is greater than the maximum 100")
    }

    // MARK: - Validation failures leave the store unchanged

    /// Runs an update that must fail and checks the store's bytes did not change; returns the error text.
    func failing(_ predicate: String?, _ assignments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let bytes = storeBytes(store.path)
        let before = try state(["age", "email", "employeeNumber"])
        var message = "no error"
        do {
            _ = try update(predicate, assignments)
        } catch {
            message = "\(error)"
        }
        #expect(storeBytes(store.path) == bytes, "store changed by \(assignments)", sourceLocation: sourceLocation)
        let after = try state(["age", "email", "employeeNumber"])
        #expect(after.mapValues { $0.0 } == before.mapValues { $0.0 } && after.mapValues { $0.1 } == before.mapValues { $0.1 },
                sourceLocation: sourceLocation)
        return message
    }

    @Test func typeFailure() throws {
        let text = try failing("employeeNumber == 2", ["age:=lastName"])
        let uuid = store.metadata.uuid
        #expect(text == "entity 'Employee', attribute 'age': x-coredata://\(uuid)/Employee/p4: expected a whole number, got 'Lee'")
        #expect(try failing(nil, ["age=age * 1.5"]) == """
            entity 'Employee', attribute 'age': x-coredata://\(uuid)/Employee/p1: 67.5 is not a whole number, so it does not \
            fit Integer 16 (round it with floor:, ceiling: or trunc:)
            """)
        #expect(try failing(nil, ["isActive=maybe"])
                == "entity 'Employee': update: 'isActive': no attribute or relationship 'maybe' in Employee")
        #expect(try failing(nil, ["age=70000"]) == "entity 'Employee', attribute 'age': 70000 is out of range for Integer 16")
    }

    @Test func rangeFailure() throws {
        let text = try failing(nil, ["age=age + 60"])
        // Objects are checked in primary-key order; the first over 100 is named.
        #expect(text == """
            entity 'Employee', attribute 'age': x-coredata://\(store.metadata.uuid)/Employee/p1: 105 is greater than \
            the maximum 100
            """)
        #expect(try failing(nil, ["salary=salary - 100"])
                == "entity 'Employee', attribute 'salary': x-coredata://\(store.metadata.uuid)/Employee/p4: -99.9 is less than the minimum 0")
        #expect(try failing(nil, ["rating=5.5"])
                == "entity 'Employee', attribute 'rating': x-coredata://\(store.metadata.uuid)/Employee/p1: 5.5 is greater than the maximum 5")
    }

    @Test func regularExpressionFailure() throws {
        let text = try failing("employeeNumber == 8", ["email=not an email"])
        #expect(text == """
            entity 'Employee', attribute 'email': x-coredata://\(store.metadata.uuid)/Employee/p8: 'not an email' does \
            not match the regular expression '^[^@ ]+@[^@ ]+\\.[a-z]{2,}$'
            """)
    }

    @Test func optionalityAndLengthFailures() throws {
        let uuid = store.metadata.uuid
        #expect(try failing(nil, ["hiredAt:=nil"])
                == "entity 'Employee', attribute 'hiredAt': x-coredata://\(uuid)/Employee/p1: a value is required (the attribute is not optional)")
        #expect(try failing("employeeNumber == 1", ["firstName="])
                == "entity 'Manager', attribute 'firstName': x-coredata://\(uuid)/Manager/p3: 0 characters is shorter than the minimum length 1")
    }

    @Test func uniquenessFailures() throws {
        let among = try failing("department.name == 'Engineering'", ["employeeNumber=7"])
        #expect(among == """
            entity 'Employee', attribute 'employeeNumber': x-coredata://\(store.metadata.uuid)/Employee/p4: uniqueness \
            constraint (employeeNumber) violated: employeeNumber = 7 is already taken by \
            x-coredata://\(store.metadata.uuid)/Manager/p3
            """)
        let existing = try failing("firstName == 'Mia'", ["employeeNumber=8"])
        #expect(existing == """
            entity 'Manager', attribute 'employeeNumber': x-coredata://\(store.metadata.uuid)/Manager/p3: uniqueness constraint \
            (employeeNumber) violated: employeeNumber = 8 is already taken by x-coredata://\(store.metadata.uuid)/Employee/p8
            """)
    }

    @Test func namesThatAreNotSettableAttributes() throws {
        #expect(try failing(nil, ["department:=nil"])
                == "entity 'Employee', attribute 'department': update: 'department' is a relationship; an update sets attributes only (change relationships with insert or import)")
        #expect(try failing(nil, ["salry=1"]) == """
            entity 'Employee': update: no attribute 'salry' in Employee; did you mean 'salary'?
            """)
        #expect(try failing(nil, ["nickname=x"])
                == "entity 'Employee', attribute 'nickname': update: 'nickname' is transient, so it is not stored")
        #expect(try failing(nil, ["age=1", "age=2"]) == "entity 'Employee', attribute 'age': update: 'age' is set twice")
        #expect(try failing(nil, ["age:=department"])
                == "entity 'Employee', attribute 'age': update: 'department' is not a single value")
    }

    @Test func readOnlyStore() throws {
        let readOnly = try Store.open(at: store.path, loaded: try ModelLoader.load(PayrollFixture.modelPath),
                                      options: .init(readOnly: true, createIfMissing: false))
        let error = #expect(throws: StoreError.self) {
            try readOnly.update(UpdateRequest(entity: "Employee", predicate: nil, assignments: [UpdateAssignment("age", .literal(.integer(20)))]))
        }
        #expect(error?.code == .readOnly)
    }
}
