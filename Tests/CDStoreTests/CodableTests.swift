import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// A model with one attribute of every type records use, and a to-one and a to-many relationship.
enum SampleModel {
    static let json = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [
          {"name": "Sample", "attributes": [
            {"name": "text", "type": "String"},
            {"name": "small", "type": "Integer 16"}, {"name": "medium", "type": "Integer 32"},
            {"name": "large", "type": "Integer 64"}, {"name": "real", "type": "Double"},
            {"name": "single", "type": "Float"}, {"name": "amount", "type": "Decimal"},
            {"name": "flag", "type": "Boolean"}, {"name": "when", "type": "Date"},
            {"name": "bytes", "type": "Binary"}, {"name": "identifier", "type": "UUID"},
            {"name": "link", "type": "URI"}, {"name": "note", "type": "String", "optional": true}],
           "relationships": [
            {"name": "owner", "destination": "Owner", "inverse": "samples", "optional": true},
            {"name": "tags", "destination": "Tag", "inverse": "samples", "toMany": true, "optional": true}]},
          {"name": "Owner", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "samples", "destination": "Sample", "inverse": "owner", "toMany": true, "optional": true}]},
          {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
           "relationships": [{"name": "samples", "destination": "Sample", "inverse": "tags", "toMany": true, "optional": true}]}
        ]}
        """

    static func store() throws -> CDStore {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Sample.json")
        try Data(json.utf8).write(to: model)
        return try CDStore(path: folder.appendingPathComponent("Sample.sqlite").path, model: .path(model.path), options: [.create])
    }
}

struct Sample: Codable, Equatable {
    var text: String
    var small: Int16
    var medium: Int32
    var large: Int64
    var real: Double
    var single: Float
    var amount: Decimal
    var flag: Bool
    var when: Date
    var bytes: Data
    var identifier: UUID
    var link: URL
    var note: String?
    var owner: ObjectID?
    var tags: [ObjectID]
}

/// The same object read with its own ID and plain integers.
struct SampleSummary: Decodable {
    var objectID: ObjectID
    var text: String
    var small: Int
    var large: Int
    var tags: [ObjectID]
}

@Suite struct CodableTests {
    static let extremes = Sample(
        text: "Ünïcode \"quoted\"\n\ttab", small: .min, medium: .max, large: .min, real: 0.1, single: 1.5,
        amount: Decimal(string: "1234.5678")!, flag: true, when: Date(timeIntervalSinceReferenceDate: 123_456.789),
        bytes: Data([0, 1, 2, 255]), identifier: UUID(uuidString: "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10")!,
        link: URL(string: "https://example.com/a?b=c")!, note: nil, owner: nil, tags: [])

    @Test func everyAttributeTypeRoundTrips() throws {
        let store = try SampleModel.store()
        var sample = Self.extremes
        let id = try store.write { ctx throws in
            let owner = try ctx.insert("Owner", ["name": "Ann"])
            let tags = [try ctx.insert("Tag", ["name": "a"]), try ctx.insert("Tag", ["name": "b"])]
            sample.owner = owner
            sample.tags = tags
            return try ctx.insert(sample, into: "Sample")
        }
        let read = try store.read { ctx throws in try ctx.fetch(Sample.self, from: "Sample") }
        #expect(read == [sample])
        let summary = try #require(try store.read { ctx throws in try ctx.fetch(SampleSummary.self, from: "Sample", matching: Criteria.all.limit(1)).first })
        #expect(summary.objectID == id)
        #expect(summary.small == Int(Int16.min))
        #expect(summary.tags == sample.tags)
    }

    @Test(arguments: [Int64.max, Int64.min, 0, -1])
    func largeIntegersStayExact(_ value: Int64) throws {
        let store = try SampleModel.store()
        var sample = Self.extremes
        sample.large = value
        try store.write { ctx throws in try ctx.insert(sample, into: "Sample") }
        let read = try store.read { ctx throws in try ctx.fetch(Sample.self, from: "Sample", matching: try Criteria("large == %@", value).limit(1)).first }
        #expect(read?.large == value)
    }

    @Test func predicatesTakeEveryTypeAsArgument() throws {
        let store = try SampleModel.store()
        let sample = Self.extremes
        try store.write { ctx throws in try ctx.insert(sample, into: "Sample") }
        try store.read { ctx throws in
            #expect(try ctx.count("Sample", matching: try Criteria("when == %@", sample.when)) == 1)
            #expect(try ctx.count("Sample", matching: try Criteria("identifier == %@", sample.identifier)) == 1)
            #expect(try ctx.count("Sample", matching: try Criteria("link == %@", sample.link)) == 1)
            #expect(try ctx.count("Sample", matching: try Criteria("flag == %@ AND single == %@", true, Float(1.5))) == 1)
            #expect(try ctx.count("Sample", matching: try Criteria("note == %@", String?.none)) == 1)
            #expect(try ctx.count("Sample", matching: try Criteria("small IN %@", [Int16.min, 0])) == 1)
        }
    }

    @Test func wrongTypeIsACodingErrorNamingTheProperty() throws {
        struct Wrong: Decodable { var text: Int }
        let store = try SampleModel.store()
        try store.write { ctx throws in try ctx.insert(Self.extremes, into: "Sample") }
        do {
            _ = try store.read { ctx throws in try ctx.fetch(Wrong.self, from: "Sample") }
            Issue.record("decoded text as Int")
        } catch let error as CDStoreError {
            #expect(error.code == .coding)
            #expect(error.property == "text")
        }
    }
}
