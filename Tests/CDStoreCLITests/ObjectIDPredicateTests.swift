import CDStoreTestSupport
import Foundation
import Testing

/// A relationship compared with an object ID, as apps write `department == %@` with a managed object.
@Suite("Object IDs in predicates")
struct ObjectIDPredicateTests {
    @Test func aToOneComparesWithAnObjectID() throws {
        let box = try Sandbox(model: organizationModel)
        try box.seedAcme()
        let real = try box.run(["fetch", "Organization", "--where", "name == 'Acme'", "--format", "json"])
        let realID = try #require((try Sandbox.objects(real.stdout)).first?["_id"] as? String)
        // The same objects as the key-path predicate selects, and NULL organizations are matched by neither.
        let members = try box.names("Person", ["--where", "organization == %@", "--arg", realID])
        let byName = try box.names("Person", ["--where", "organization.name == 'Acme'"])
        #expect(!members.isEmpty && members == byName)
        let others = try box.names("Person", ["--where", "organization != %@", "--arg", realID])
        let othersByName = try box.names("Person", ["--where", "organization.name != 'Acme'"])
        #expect(!others.isEmpty && others == othersByName)
        let projectID = realID.replacingOccurrences(of: "/Organization/", with: "/Project/")
        let wrong = try box.run(["count", "Person", "--where", "organization == %@", "--arg", projectID])
        #expect(wrong.status == 1 && wrong.stderr == "error: entity 'Person': --where: \(projectID) is not an object of entity Organization\n")
    }
}
