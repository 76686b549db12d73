import CDStoreModel
import Foundation
import Testing

/// One test per validation rule, each on a small JSON model whose line numbers are easy to read: line 1
/// opens the model, and each entity given to ``validate(_:)`` starts on its own line (2, 3, …).
@Suite struct ModelValidatorTests {
    /// Validates a model made of one-line entity objects and returns the issue descriptions.
    func validate(_ entities: String..., extra: String = "") throws -> [String] {
        let json = "{\"format\": \"cdstore-model\", \"formatVersion\": 1, \(extra)\"entities\": [\n"
            + entities.joined(separator: ",\n") + "\n]}\n"
        let loaded = try JSONModelCodec.decode(Data(json.utf8), file: URL(fileURLWithPath: "Model.json"))
        return ModelValidator.validate(loaded).map(\.description)
    }

    let person = #"{"name": "Person", "attributes": [{"name": "name", "type": "String"}]}"#

    @Test func validModelHasNoIssues() throws {
        #expect(try validate(person) == [])
    }

    @Test func emptyNames() throws {
        #expect(try validate(#"{"name": "", "attributes": [{"name": "", "type": "String"}]}"#) == [
            "Model.json: an entity has an empty name",
            "Model.json:2:1: entity '': a property has an empty name",
        ])
    }

    @Test func duplicateEntity() throws {
        #expect(try validate(person, person) == ["Model.json:3:1: entity 'Person': another entity has the same name"])
    }

    @Test func unknownParent() throws {
        #expect(try validate(#"{"name": "Student", "parent": "Persn"}"#) == [
            "Model.json:2:1: entity 'Student': parent entity 'Persn' does not exist",
        ])
    }

    @Test func inheritanceCycle() throws {
        #expect(try validate(#"{"name": "A", "parent": "B"}"#, #"{"name": "B", "parent": "A"}"#) == [
            "Model.json:2:1: entity 'A': inheritance cycle: A → B → A",
        ])
    }

    @Test func duplicatePropertyInOneEntity() throws {
        let entity = #"{"name": "Person", "attributes": [{"name": "age", "type": "Integer 16"}], "#
            + #""relationships": [{"name": "age", "destination": "Person"}]}"#
        // The source map keeps one location per name: the relationship, declared last.
        #expect(try validate(entity) == [
            "Model.json:2:93: entity 'Person', property 'age': property 'age' is declared more than once",
        ])
    }

    @Test func propertyRedeclaringInheritedOne() throws {
        let student = #"{"name": "Student", "parent": "Person", "attributes": [{"name": "name", "type": "String"}]}"#
        #expect(try validate(person, student) == [
            "Model.json:3:56: entity 'Student', property 'name': property 'name' is already declared by parent entity 'Person'",
        ])
    }

    @Test func reservedName() throws {
        #expect(try validate(#"{"name": "Note", "attributes": [{"name": "description", "type": "String"}]}"#) == [
            "Model.json:2:33: entity 'Note', property 'description': 'description' is a reserved name "
                + "(it would replace NSObject.description)",
        ])
    }

    /// The getters `isDeleted`, `isInserted`, `isUpdated` and `isFault` are reserved; the property names they
    /// read are not methods, and real models use them (Simplenote's `Note.deleted`).
    @Test func propertyNamesWhoseGettersAreReservedAreAllowed() throws {
        let names = ["deleted", "inserted", "updated", "fault"]
        let attributes = names.map { #"{"name": "\#($0)", "type": "Boolean"}"# }.joined(separator: ", ")
        #expect(try validate(#"{"name": "Note", "attributes": [\#(attributes)]}"#) == [])
        #expect(try validate(#"{"name": "Note", "attributes": [{"name": "isDeleted", "type": "Boolean"}]}"#) == [
            "Model.json:2:33: entity 'Note', property 'isDeleted': 'isDeleted' is a reserved name "
                + "(it would replace NSManagedObject.isDeleted)",
        ])
    }

    @Test func invalidDefaults() throws {
        let entity = #"{"name": "P", "attributes": ["#
            + #"{"name": "a", "type": "Integer 16", "default": "abc"}, "#
            + #"{"name": "b", "type": "Integer 16", "default": "40000"}, "#
            + #"{"name": "c", "type": "Boolean", "default": "maybe"}, "#
            + #"{"name": "d", "type": "UUID", "default": "not-a-uuid"}, "#
            + #"{"name": "e", "type": "Double", "default": "1.5e3"}, "#
            + #"{"name": "f", "type": "Boolean", "default": "YES"}]}"#
        #expect(try validate(entity) == [
            "Model.json:2:30: warning: entity 'P', property 'a': default 'abc' is not a valid Integer 16",
            "Model.json:2:85: entity 'P', property 'b': default '40000' is out of range for Integer 16 (-32768...32767)",
            "Model.json:2:142: warning: entity 'P', property 'c': default 'maybe' is not a valid Boolean",
            "Model.json:2:196: warning: entity 'P', property 'd': default 'not-a-uuid' is not a valid UUID",
        ])
    }

    @Test func minimumGreaterThanMaximum() throws {
        let entity = #"{"name": "P", "attributes": ["#
            + #"{"name": "n", "type": "Integer 32", "minValue": "10", "maxValue": "5"}, "#
            + #"{"name": "s", "type": "String", "minValue": "8", "maxValue": "2"}, "#
            + #"{"name": "d", "type": "Date", "minDate": 100, "maxDate": 50}]}"#
        #expect(try validate(entity) == [
            "Model.json:2:30: entity 'P', property 'n': minimum 10 is greater than maximum 5",
            "Model.json:2:102: entity 'P', property 's': minimum length 8 is greater than maximum length 2",
            "Model.json:2:169: entity 'P', property 'd': minimum date 100.0 is later than maximum date 50.0",
        ])
    }

    @Test func unparseableLimit() throws {
        #expect(try validate(#"{"name": "P", "attributes": [{"name": "s", "type": "String", "maxValue": "ten"}]}"#) == [
            "Model.json:2:30: warning: entity 'P', property 's': maximum 'ten' is not a whole number",
        ])
    }

    @Test func invalidRegularExpression() throws {
        let entity = #"{"name": "P", "attributes": [{"name": "code", "type": "String", "regularExpression": "[A-Z"}]}"#
        #expect(try validate(entity) == [
            "Model.json:2:30: entity 'P', property 'code': invalid regular expression '[A-Z'",
        ])
    }

    @Test func unknownDestination() throws {
        #expect(try validate(#"{"name": "P", "relationships": [{"name": "pet", "destination": "Dog"}]}"#) == [
            "Model.json:2:33: entity 'P', property 'pet': destination entity 'Dog' does not exist",
        ])
    }

    @Test func unknownInverse() throws {
        let a = #"{"name": "A", "relationships": [{"name": "b", "destination": "B", "inverse": "owner"}]}"#
        let b = #"{"name": "B"}"#
        #expect(try validate(a, b) == [
            "Model.json:2:33: entity 'A', property 'b': inverse 'owner' does not exist on entity 'B'",
        ])
    }

    @Test func inverseNotPointingBack() throws {
        let a = #"{"name": "A", "relationships": [{"name": "b", "destination": "B", "inverse": "a"}, "#
            + #"{"name": "other", "destination": "B"}]}"#
        let b = #"{"name": "B", "relationships": [{"name": "a", "destination": "A", "inverse": "other"}]}"#
        #expect(try validate(a, b) == [
            "Model.json:2:33: warning: entity 'A', property 'b': inverse 'B.a' does not point back (its inverse is 'other')",
            "Model.json:3:33: warning: entity 'B', property 'a': inverse 'A.other' does not point back (its inverse is none)",
        ])
    }

    @Test func toOneWithMinCountAboveOne() throws {
        #expect(try validate(#"{"name": "P", "relationships": [{"name": "p", "destination": "P", "minCount": 2}]}"#) == [
            "Model.json:2:33: entity 'P', property 'p': a to-one relationship cannot have minCount 2",
        ])
    }

    @Test func constraintAndIndexesNamingUnknownProperties() throws {
        let entity = #"{"name": "Person", "attributes": [{"name": "name", "type": "String"}], "#
            + #""uniquenessConstraints": [["name", "email"]], "#
            + #""fetchIndexes": [{"name": "byAge", "elements": [{"property": "age"}]}], "#
            + #""compoundIndexes": [["name", "nick"]]}"#
        #expect(try validate(entity) == [
            "Model.json:2:1: entity 'Person': uniqueness constraint [name, email] names unknown property 'email'",
            "Model.json:2:1: entity 'Person': fetch index 'byAge' names unknown property 'age'",
            "Model.json:2:1: entity 'Person': compound index [name, nick] names unknown property 'nick'",
        ])
    }

    @Test func inheritedPropertiesSatisfyConstraints() throws {
        let student = #"{"name": "Student", "parent": "Person", "uniquenessConstraints": [["name"]]}"#
        #expect(try validate(person, student) == [])
    }

    @Test func fetchRequestAndConfigurationNamingUnknownEntities() throws {
        let extra = #""fetchRequests": [{"name": "all", "entity": "People"}], "#
            + #""configurations": [{"name": "Cloud", "entities": ["Person", "Pet"]}], "#
        #expect(try validate(person, extra: extra) == [
            "Model.json: fetch request 'all' fetches unknown entity 'People'",
            "Model.json: configuration 'Cloud' names unknown entity 'Pet'",
        ])
    }

    /// Every problem is reported, not just the first.
    @Test func reportsAllProblemsAtOnce() throws {
        let entity = #"{"name": "P", "parent": "Q", "attributes": [{"name": "hash", "type": "Integer 64"}], "#
            + #""relationships": [{"name": "r", "destination": "R"}]}"#
        let issues = try validate(entity)
        #expect(issues == [
            "Model.json:2:1: entity 'P': parent entity 'Q' does not exist",
            "Model.json:2:45: entity 'P', property 'hash': 'hash' is a reserved name (it would replace NSObject.hash)",
            "Model.json:2:104: entity 'P', property 'r': destination entity 'R' does not exist",
        ])
    }

    /// Issues in an Xcode model point at the `contents` file, with the XML parser's line and column.
    @Test func xcodeModelLocations() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="abc"/>
            </entity>
        </model>
        """
        let file = URL(fileURLWithPath: "Model.xcdatamodeld/Model.xcdatamodel/contents")
        let loaded = try XcodeModelReader.read(Data(xml.utf8), file: file)
        let issue = try #require(ModelValidator.validate(loaded).first)
        #expect(issue.severity == .warning)
        #expect(issue.rule == .invalidDefault)
        #expect(issue.line == 4)
        #expect(issue.description.hasPrefix("Model.xcdatamodeld/Model.xcdatamodel/contents:4:"))
        #expect(issue.description.hasSuffix(": warning: entity 'Person', property 'age': default 'abc' is not a valid Integer 16"))
    }
}
