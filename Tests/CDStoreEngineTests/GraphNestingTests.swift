import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// Nested objects in an insert are bounded: 200 nested objects overflowed the stack of `cdstore insert`; more than
/// ``GraphInserter/nestingLimit`` is an error naming the record.
@Suite("Graph insert: nesting depth")
struct GraphNestingTests {
    static func store() throws -> Store {
        try Org.store(try Org.jsonModel("""
            [{"name":"Node","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"next","destination":"Node","inverse":"previous","optional":true},
                               {"name":"previous","destination":"Node","inverse":"next","optional":true},
                               {"name":"kids","destination":"Node","inverse":"parent","toMany":true,"optional":true},
                               {"name":"parent","destination":"Node","inverse":"kids","optional":true}]}]
            """), name: "Nodes.sqlite")
    }

    /// A record with `depth` objects, each the `next` (or the only kid) of the one before.
    static func chain(_ depth: Int, key: String = "next") -> String {
        var text = #"{"name":"n\#(depth - 1)"}"#
        for n in (0..<(depth - 1)).reversed() {
            text = key == "kids" ? #"{"name":"n\#(n)","kids":[\#(text)]}"# : #"{"name":"n\#(n)","next":\#(text)}"#
        }
        return text
    }

    static let message = "record 1: entity 'Node': objects nested more than 100 deep; insert the deeper ones first and "
        + "refer to them (an object ID or {\"_ref\": …})"

    @Test func nestedDeeperThanTheLimitIsAnError() throws {
        let store = try Self.store()
        for (depth, key) in [(101, "next"), (101, "kids"), (400, "next"), (200, "kids")] {
            #expect(errorText { try store.insertJSON("Node", Self.chain(depth, key: key)) } == Self.message, "\(depth) \(key)")
        }
        #expect(try store.rows("SELECT COUNT(*) FROM ZNODE") == ["0"])
    }

    @Test func nestedToTheLimitIsInserted() throws {
        let store = try Self.store()
        #expect(try store.insertJSON("Node", Self.chain(100)) == 1)
        #expect(try store.insertJSON("Node", Self.chain(100, key: "kids")) == 1)
        #expect(try store.rows("SELECT COUNT(*), COUNT(ZNEXT), COUNT(ZPARENT) FROM ZNODE") == ["200|99|99"])
    }
}
