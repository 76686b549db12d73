import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Finding a model on disk and reading every setting Xcode writes.
@Suite("Loading models")
struct ModelLoaderTests {
    func write(_ xml: String, to folder: URL, version: String = "M") throws -> URL {
        let versionFolder = folder.appendingPathComponent("\(version).xcdatamodel")
        try FileManager.default.createDirectory(at: versionFolder, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: versionFolder.appendingPathComponent("contents"))
        return versionFolder
    }

    func model(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" \
        systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v7">
        \(body)
        </model>
        """
    }

    func currentVersionPlist(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name)</string></dict></plist>
        """
    }

    @Test func readsEverySettingXcodeWrites() throws {
        let folder = try temporaryDirectory()
        let version = try write(model("""
            <entity name="Person" representedClassName="PersonMO" parentEntity="Party" isAbstract="YES" elementID="Human" versionHashModifier="v2" syncable="YES" codeGenerationType="class">
                <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150" defaultValueString="18" usesScalarValueType="YES" elementID="years" versionHashModifier="m"/>
                <attribute name="born" attributeType="Date" defaultDateTimeInterval="-31622400" minDateTimeInterval="-978307200" maxDateTimeInterval="700000000"/>
                <attribute name="code" attributeType="String" regularExpressionString="[A-Z]+" spotlightIndexingEnabled="YES" storedInTruthFile="YES" indexed="YES">
                    <userInfo><entry key="JSONKeyPath" value="person_code"/></userInfo>
                </attribute>
                <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES"/>
                <attribute name="colour" optional="YES" attributeType="Transformable" valueTransformerName="ColourTransformer" customClassName="UIColor"/>
                <attribute name="nameLength" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="code.length"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                <relationship name="friends" optional="YES" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="Cascade" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                <relationship name="team" maxCount="1" deletionRule="Deny" destinationEntity="Team" inverseName="members" inverseEntity="Team" elementID="squad"/>
                <fetchedProperty name="elders" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Person" predicateString="age &gt; 60"/>
                </fetchedProperty>
                <fetchIndex name="byCode"><fetchIndexElement property="code" type="Binary" order="descending"/></fetchIndex>
                <uniquenessConstraints><uniquenessConstraint><constraint value="code"/><constraint value="born"/></uniquenessConstraint></uniquenessConstraints>
                <userInfo><entry key="owner" value="hr"/></userInfo>
            </entity>
            <entity name="Party" isAbstract="YES"/>
            <entity name="Team"><relationship name="members" toMany="YES" deletionRule="No Action" destinationEntity="Person" inverseName="team" inverseEntity="Person"/></entity>
            <fetchRequest name="Adults" entity="Person" predicateString="age &gt;= 18" fetchLimit="10"/>
            <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Person"/></configuration>
            <elements><element name="Person" positionX="0" positionY="0" width="128" height="100"/></elements>
            """), to: folder)
        let loaded = try ModelLoader.load(version.path)
        #expect(loaded.warnings.isEmpty)
        let m = loaded.model
        #expect(m.versionIdentifiers == ["v7"])
        #expect(m.fetchRequests == [{ var r = FetchRequestTemplate(name: "Adults", entity: "Person", predicate: "age >= 18"); r.options = ["fetchLimit": "10"]; return r }()])
        #expect(m.configurations.first?.entities == ["Person"] && m.configurations.first?.usedWithCloudKit == true)
        let person = try #require(m.entity(named: "Person"))
        #expect(person.className == "PersonMO" && person.parentName == "Party" && person.isAbstract)
        #expect(person.renamingIdentifier == "Human" && person.versionHashModifier == "v2" && person.codeGenerationType == "class")
        #expect(person.userInfo == ["owner": "hr"])
        let age = try #require(person.attribute(named: "age"))
        #expect(age.type == .integer16 && age.isOptional && age.minValue == "0" && age.maxValue == "150")
        #expect(age.defaultValue == "18" && age.renamingIdentifier == "years" && age.versionHashModifier == "m")
        let born = try #require(person.attribute(named: "born"))
        #expect(!born.isOptional && born.defaultDateTimeInterval == -31622400 && born.minDateTimeInterval == -978307200)
        let code = try #require(person.attribute(named: "code"))
        #expect(code.regularExpression == "[A-Z]+" && code.isIndexedBySpotlight && code.isStoredInExternalRecord && code.isIndexed)
        #expect(code.userInfo == ["JSONKeyPath": "person_code"])
        let photo = try #require(person.attribute(named: "photo"))
        #expect(photo.allowsExternalBinaryDataStorage && photo.preservesValueInHistoryOnDeletion)
        let colour = try #require(person.attribute(named: "colour"))
        #expect(colour.valueTransformerName == "ColourTransformer" && colour.customClassName == "UIColor")
        let derived = try #require(person.attribute(named: "nameLength"))
        #expect(derived.derivationExpression == "code.length" && derived.isReadOnly)
        #expect(person.attribute(named: "scratch")?.isTransient == true)
        let friends = try #require(person.relationship(named: "friends"))
        #expect(friends.isToMany && friends.isOrdered && friends.minCount == 1 && friends.maxCount == 5)
        #expect(friends.deleteRule == .cascade && friends.inverseName == "friends")
        let team = try #require(person.relationship(named: "team"))
        #expect(!team.isToMany && !team.isOptional && team.maxCount == 1 && team.deleteRule == .deny && team.renamingIdentifier == "squad")
        #expect(m.entity(named: "Team")?.relationships.first?.deleteRule == .noAction)
        #expect(person.fetchedProperties.first?.fetchRequest.predicate == "age > 60")
        #expect(person.fetchIndexes == [FetchIndex(name: "byCode", elements: [.init(property: "code", isAscending: false)])])
        #expect(person.uniquenessConstraints == [["code", "born"]])
        #expect(loaded.sourceMap.location(entity: "Person", property: "code")?.line == 6)
    }

    @Test func unknownElementsAreSkippedWithAWarning() throws {
        let folder = try temporaryDirectory()
        let version = try write(model("""
            <entity name="A"><attribute name="x" optional="YES" attributeType="String"/><sparkle level="9"/></entity>
            """), to: folder)
        let loaded = try ModelLoader.load(version.path)
        #expect(loaded.model.entities.first?.attributes.count == 1)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings == ["\(version.path)/contents:3: skipped unknown element <sparkle> inside <entity>"])
    }

    @Test func theCurrentVersionComesFromXccurrentversion() throws {
        let bundle = try temporaryDirectory().appendingPathComponent("M.xcdatamodeld")
        _ = try write(model("<entity name=\"One\"/>"), to: bundle, version: "M")
        _ = try write(model("<entity name=\"Two\"/>"), to: bundle, version: "M 2")
        _ = try write(model("<entity name=\"Ten\"/>"), to: bundle, version: "M 10")
        try Data(currentVersionPlist("M 2.xcdatamodel").utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let current = try ModelLoader.load(bundle.path)
        #expect(current.versionName == "M 2" && current.model.entities.map(\.name) == ["Two"])
        #expect(current.availableVersions == ["M", "M 2", "M 10"])
        #expect(try ModelLoader.load(bundle.path, version: "M 10").model.entities.map(\.name) == ["Ten"])
        #expect(try ModelLoader.load(bundle.path, version: "M.xcdatamodel").model.entities.map(\.name) == ["One"])
        #expect { try ModelLoader.load(bundle.path, version: "M 3") } throws: { error in
            (error as? ModelError)?.message == "no version 'M 3' in this bundle; versions: M, M 2, M 10"
        }
    }

    @Test func severalVersionsWithoutXccurrentversionAskForOne() throws {
        let bundle = try temporaryDirectory().appendingPathComponent("M.xcdatamodeld")
        _ = try write(model("<entity name=\"One\"/>"), to: bundle, version: "A")
        _ = try write(model("<entity name=\"Two\"/>"), to: bundle, version: "B")
        let error = #expect(throws: ModelError.self) { try ModelLoader.load(bundle.path) }
        #expect(error?.code == .unknownVersion)
        #expect(error?.message == "nothing says which version is current; pick one by name (versions: A, B)")
    }

    @Test func theContentsFileLoadsAlone() throws {
        let version = try write(model("<entity name=\"Solo\"/>"), to: try temporaryDirectory())
        #expect(try ModelLoader.load(version.appendingPathComponent("contents").path).model.entities.map(\.name) == ["Solo"])
    }

    @Test func aPreXcode4ModelGetsAClearError() throws {
        let version = try temporaryDirectory().appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: version.appendingPathComponent("elements"))
        let error = #expect(throws: ModelError.self) { try ModelLoader.load(version.path) }
        #expect(error?.code == .legacyBinaryModel)
        #expect(error?.description == "\(version.path): this is a pre-Xcode 4 model (a binary 'elements' file, not 'contents'); "
                + "open it in Xcode once to convert it, or use the compiled .mom/.momd from the app bundle")
    }

    @Test func malformedXMLNamesFileAndLine() throws {
        let version = try write("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n</model>\n", to: try temporaryDirectory())
        #expect { try ModelLoader.load(version.path) } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .malformedXML && error.file?.hasSuffix("M.xcdatamodel/contents") == true && error.line != nil
        }
    }

    @Test func anUnknownAttributeTypeIsAnErrorWithItsPlace() throws {
        let version = try write(model("<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Text\"/>\n</entity>"),
                                to: try temporaryDirectory())
        #expect { try ModelLoader.load(version.path) } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.message == "unknown attribute type 'Text'" && error.entity == "A" && error.property == "x"
        }
    }

    @Test func aMissingPathIsFileNotFound() {
        #expect { try ModelLoader.load("/nonexistent/M.xcdatamodeld") } throws: { error in
            (error as? ModelError)?.code == .fileNotFound
        }
    }
}
