import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// Fetched properties, included by name: the fetch request runs per object with `$FETCH_SOURCE` bound to it.
@Suite("Fetched properties")
struct FetchedPropertyTests {
    @Test func aFetchedPropertyRunsItsRequestForEachObject() throws {
        let folder = try temporaryDirectory().appendingPathComponent("Fetched.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Series" representedClassName="Series" syncable="YES">
                    <attribute name="code" optional="YES" attributeType="String"/>
                    <fetchedProperty name="unread" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Issue" predicateString="seriesCode == $FETCH_SOURCE.code AND read == NO"/>
                    </fetchedProperty>
                    <fetchedProperty name="broken" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Issue" predicateString="seriesCode == $FETCH_SOURCE.missing"/>
                    </fetchedProperty>
                </entity>
                <entity name="Issue" representedClassName="Issue" syncable="YES">
                    <attribute name="number" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                    <attribute name="read" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                    <attribute name="seriesCode" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let store = try Store.open(at: folder.deletingLastPathComponent().appendingPathComponent("F.sqlite").path,
                                   model: try ModelLoader.load(folder.path).model)
        try store.insertJSON("Series", #"[{"code": "A"}, {"code": "B"}]"#)
        try store.insertJSON("Issue", #"[{"number": 1, "seriesCode": "A", "read": true}, {"number": 2, "seriesCode": "A", "read": false},"#
                             + #" {"number": 3, "seriesCode": "B", "read": false}, {"number": 4, "seriesCode": "C", "read": false}]"#)
        let series = try store.fetch(ObjectFetchRequest(entity: "Series", relationships: .none, includes: ["unread"]))
        #expect(series.map { FetchedPropertyTests.numbers($0["unread"]) } == [[2], [3]])
        let error = #expect(throws: StoreError.self) {
            try store.fetch(ObjectFetchRequest(entity: "Series", relationships: .none, includes: ["broken"]))
        }
        #expect(error?.description.contains("fetched property 'broken': $FETCH_SOURCE.missing is not an attribute of Series") == true)
    }
}

extension FetchedPropertyTests {
    /// The `number` of each record in an array value.
    static func numbers(_ value: ObjectValue?) -> [Int64] {
        guard case .array(let records)? = value else { return [] }
        return records.compactMap { record in
            guard case .dictionary(let fields) = record, case .integer(let n)? = fields.first(where: { $0.0 == "number" })?.1 else { return nil }
            return n
        }
    }
}
