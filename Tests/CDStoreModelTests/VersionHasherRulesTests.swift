import CDStoreModel
import Foundation
import Testing

/// What does and does not change a version hash (coredata-format.md §2), on small inline models.
@Suite struct VersionHasherRulesTests {
    func person(_ change: (inout Entity) -> Void = { _ in }) -> ManagedObjectModel {
        var entity = Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)],
                            relationships: [Relationship(name: "friends", destination: "Person", inverseName: "friends",
                                                         isToMany: true)])
        change(&entity)
        return ManagedObjectModel(entities: [entity])
    }

    func hash(_ model: ManagedObjectModel) -> [UInt8] { VersionHasher.entityHashes(of: model)["Person"]! }

    @Test func settingsOutsideTheHashDoNotChangeIt() {
        let base = hash(person())
        #expect(hash(person { $0.attributes[0].defaultValue = "x" }) == base)
        #expect(hash(person { $0.attributes[0].regularExpression = "a+" }) == base)
        #expect(hash(person { $0.attributes[0].userInfo = ["k": "v"] }) == base)
        #expect(hash(person { $0.attributes[0].renamingIdentifier = "fullName" }) == base)
        #expect(hash(person { $0.relationships[0].deleteRule = .cascade }) == base)
        #expect(hash(person { $0.className = "PersonMO" }) == base)
        #expect(hash(person { $0.fetchIndexes = [FetchIndex(name: "byName", elements: [.init(property: "name")])] }) == base)
        // Transient properties are skipped entirely.
        #expect(hash(person { $0.attributes.append({ var a = Attribute(name: "cache", type: .binary); a.isTransient = true; return a }()) }) == base)
    }

    @Test func hashedSettingsChangeIt() {
        let base = hash(person())
        #expect(hash(person { $0.attributes[0].isOptional = true }) != base)
        #expect(hash(person { $0.attributes[0].type = .uri }) != base)
        #expect(hash(person { $0.attributes[0].versionHashModifier = "2" }) != base)
        #expect(hash(person { $0.relationships[0].isOrdered = true }) != base)
        #expect(hash(person { $0.relationships[0].minCount = 1 }) != base)
        #expect(hash(person { $0.isAbstract = true }) != base)
        #expect(hash(person { $0.uniquenessConstraints = [["name"]] }) != base)
    }

    /// A relationship that is its own inverse hashes as if it had no inverse name.
    @Test func selfInverseNameIsNotHashed() {
        #expect(hash(person()) == hash(person { $0.relationships[0].inverseName = nil }))
        // An ordinary inverse name is hashed.
        let pair = ManagedObjectModel(entities: [
            Entity(name: "A", relationships: [Relationship(name: "b", destination: "B", inverseName: "a")]),
            Entity(name: "B", relationships: [Relationship(name: "a", destination: "A", inverseName: "b")]),
        ])
        var unpaired = pair
        unpaired.entities[0].relationships[0].inverseName = nil
        #expect(VersionHasher.entityHashes(of: pair)["A"] != VersionHasher.entityHashes(of: unpaired)["A"])
    }

    /// A sub-entity's hash includes its parent's hash and the inherited properties.
    @Test func subEntityDependsOnParent() {
        let model = ManagedObjectModel(entities: [
            Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)]),
            Entity(name: "Student", parentName: "Person"),
        ])
        var changed = model
        changed.entities[0].attributes[0].isOptional = true
        #expect(VersionHasher.entityHashes(of: model)["Student"] != VersionHasher.entityHashes(of: changed)["Student"])
    }

    /// An inheritance cycle (a broken model) still hashes without looping.
    @Test func inheritanceCycleTerminates() {
        let model = ManagedObjectModel(entities: [Entity(name: "A", parentName: "B"), Entity(name: "B", parentName: "A")])
        #expect(VersionHasher.entityHashes(of: model).count == 2)
    }

    @Test func checksumAndDigestAreBase64OfTheRightLength() throws {
        let model = person()
        #expect(try #require(Data(base64Encoded: VersionHasher.versionChecksum(of: model))).count == 32)
        #expect(try #require(Data(base64Encoded: VersionHasher.hashesDigest(of: model))).count == 64)
    }
}
