@testable import CDStoreModel
import CDStoreEngine
import CDStoreTestSupport
import Foundation
import Testing

/// ``ModelArchiver``: the model cache cdstore writes decodes, with cdstore's own decoder, to the model it was
/// written from, and looks like the caches Apple writes.
@Suite(.serialized) struct ModelArchiverTests {
    /// The woocommerce versions whose `Site.visibility` (Integer 64) has the default "NO".
    func woocommerceVersions() throws -> [String] {
        let bundle = Corpus.models.appendingPathComponent("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld")
        return try Corpus.versions(of: bundle).map { $0.deletingPathExtension().lastPathComponent }.filter { name in
            let contents = bundle.appendingPathComponent(name + ".xcdatamodel/contents")
            let xml = (try? String(contentsOf: contents, encoding: .utf8)) ?? ""
            return xml.contains(#"name="visibility" attributeType="Integer 64" defaultValueString="NO""#)
        }
    }

    static func roundTrip(_ model: ManagedObjectModel) throws -> (LoadedModel, ModelCacheEncoder.Result) {
        let encoded = try ModelCacheEncoder.encode(model, predicates: PredicateArchiver())
        return (try ModelCacheDecoder.decode(encoded.data), encoded)
    }

    /// The archive of every model decodes to the same model: equal entity version hashes, and equal in the
    /// comparison form momc's output is checked in (``ModelComparison``: order, defaults as numbers, predicates
    /// in Foundation's form), with no decoder warnings.
    @Test func everyModelRoundTrips() throws {
        let models = try EveryModel.load()
        #expect(models.count == CorpusModelTests.versionCount + 11)
        var archiverWarnings: [String] = []
        for (name, loaded) in models {
            let (decoded, encoded) = try Self.roundTrip(loaded.model)
            archiverWarnings += encoded.warnings.map { "\(name): \($0)" }
            #expect(decoded.warnings == [], "\(name)")
            #expect(base64Hashes(VersionHasher.entityHashes(of: decoded.model))
                    == base64Hashes(VersionHasher.entityHashes(of: loaded.model)), "\(name)")
            let differences = modelDifferences(decoded.model, Self.comparable(loaded.model, warnings: encoded.warnings))
            #expect(differences.isEmpty, "\(name):\n\(differences.joined(separator: "\n"))")
        }
        // Defaults that are not values of their attribute's type (real corpus models) are left out, with a warning.
        var expected: [String] = [
            "moonlight-stream__moonlight-ios__Limelight.xcdatamodeld/Moonlight v1.10.xcdatamodel: entity 'Settings', "
                + "attribute 'preferredCodec': default value 'YES' is not a value of type Integer 32, so the model cache leaves it out",
            "nightscout__Trio__TrioCoreDataPersistentContainer.xcdatamodeld/TrioCoreDataPersistentContainer.xcdatamodel: "
                + "entity 'TempTargetRunStored', attribute 'id': default value 'empy' is not a value of type UUID, so the model "
                + "cache leaves it out",
        ]
        let woocommerce = try woocommerceVersions()
        for version in woocommerce {
            expected.append("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld/\(version).xcdatamodel: entity 'Site', "
                            + "attribute 'visibility': default value 'NO' is not a value of type Integer 64, so the model cache leaves it out")
        }
        #expect(woocommerce.count == 6)
        #expect(archiverWarnings == expected)
    }

    /// What the cache does not hold, taken out of the source model before comparing (see ``ModelArchiver``):
    /// Spotlight display names, composite type names, configurations' CloudKit flag and the defaults the archiver
    /// warned about. A Boolean default is an NSNumber in the archive, read back as YES/NO.
    static func comparable(_ model: ManagedObjectModel, warnings: [String] = []) -> ManagedObjectModel {
        var m = model
        m.entities = m.entities.map { e in
            var e = e
            e.spotlightDisplayNameExpression = nil
            e.attributes = e.attributes.map { a in
                var a = a
                a.compositeName = nil
                if warnings.contains(where: { $0.hasPrefix("entity '\(e.name)', attribute '\(a.name)': default value") }) {
                    a.defaultValue = nil
                }
                if a.type == .boolean, let text = a.defaultValue {
                    a.defaultValue = ["YES", "TRUE"].contains(text.uppercased()) || (Double(text) ?? 0) != 0 ? "YES" : "NO"
                }
                return a
            }
            return e
        }
        m.configurations = m.configurations.map { c in
            var c = c
            c.usedWithCloudKit = false
            return c
        }
        return m
    }
}

/// Single features of the archive, on a model built for them.
@Suite(.serialized) struct ModelArchiverFeatureTests {
    /// Vehicle (abstract) ← Car ← SportCar, Person; every attribute setting the archive holds.
    static var model: ManagedObjectModel {
        var vehicle = Entity(name: "Vehicle", isAbstract: true)
        var plate = Attribute(name: "plate", type: .string)
        plate.minValue = "2"
        plate.maxValue = "12"
        plate.regularExpression = "[A-Z0-9]+"
        plate.renamingIdentifier = "numberPlate"
        plate.userInfo = ["b": "2", "a": "1"]
        plate.isIndexedBySpotlight = true
        var built = Attribute(name: "built", type: .date, isOptional: true)
        built.minDateTimeInterval = -978_307_200
        built.defaultDateTimeInterval = 0
        var photo = Attribute(name: "photo", type: .binary, isOptional: true)
        photo.allowsExternalBinaryDataStorage = true
        photo.preservesValueInHistoryOnDeletion = true
        photo.isStoredInExternalRecord = true
        photo.allowsCloudEncryption = true
        vehicle.attributes = [plate, built, photo]
        vehicle.relationships = [Relationship(name: "owner", destination: "Person", inverseName: "vehicles")]
        vehicle.relationships[0].isOptional = true
        vehicle.uniquenessConstraints = [["plate"]]

        var car = Entity(name: "Car", parentName: "Vehicle")
        var price = Attribute(name: "price", type: .decimal, isOptional: true)
        price.defaultValue = "19.99"
        price.minValue = "0.5"
        var seats = Attribute(name: "seats", type: .integer16)
        seats.defaultValue = "4"
        seats.minValue = "1"
        seats.maxValue = "9"
        seats.versionHashModifier = "v2"
        seats.isIndexed = true
        var speed = Attribute(name: "speed", type: .double, isOptional: true)
        speed.isTransient = true
        speed.defaultValue = "1.5"
        var electric = Attribute(name: "electric", type: .boolean)
        electric.defaultValue = "YES"
        var vin = Attribute(name: "vin", type: .uuid, isOptional: true)
        vin.defaultValue = "6B29FC40-CA47-1067-B31D-00DD010662DA"
        var site = Attribute(name: "site", type: .uri, isOptional: true)
        site.defaultValue = "https://example.com/car"
        var colour = Attribute(name: "colour", type: .transformable, isOptional: true)
        colour.valueTransformerName = "ColourTransformer"
        colour.customClassName = "UIColor"
        var passengerCount = Attribute(name: "passengerCount", type: .integer64, isOptional: true)
        passengerCount.derivationExpression = "passengers.@count"
        passengerCount.isReadOnly = true
        car.attributes = [price, seats, speed, electric, vin, site, colour, passengerCount]
        var passengers = Relationship(name: "passengers", destination: "Person", inverseName: "rides", isToMany: true)
        passengers.isOrdered = true
        passengers.isOptional = true
        passengers.deleteRule = .deny
        passengers.minCount = 1
        passengers.maxCount = 7
        car.relationships = [passengers]
        var bySeats = FetchIndex(name: "bySeats", elements: [.init(property: "seats", isAscending: false)])
        bySeats.partialIndexPredicate = "seats > 2"
        car.fetchIndexes = [bySeats]
        car.compoundIndexes = [["seats", "price"]]
        car.userInfo = ["kind": "car"]
        car.versionHashModifier = "2024"
        car.renamingIdentifier = "Automobile"
        car.className = "Car"

        let sportCar = Entity(name: "SportCar", parentName: "Car")

        var person = Entity(name: "Person")
        person.attributes = [Attribute(name: "name", type: .string)]
        var vehicles = Relationship(name: "vehicles", destination: "Vehicle", inverseName: "owner", isToMany: true)
        vehicles.isOptional = true
        vehicles.deleteRule = .cascade
        var rides = Relationship(name: "rides", destination: "Car", inverseName: "passengers", isToMany: true)
        rides.isOptional = true
        // The inverse lives in SportCar only as an inherited copy of Vehicle.owner.
        var favourite = Relationship(name: "favourite", destination: "SportCar", inverseName: "owner")
        favourite.isOptional = true
        favourite.inverseEntity = "SportCar"
        person.relationships = [vehicles, rides, favourite]
        var request = FetchRequestTemplate(name: "cars", entity: "Car", predicate: "ANY passengers.name ==[cd] $NAME")
        request.options = ["fetchLimit": "10"]
        person.fetchedProperties = [FetchedProperty(name: "sameName", fetchRequest: request)]

        var model = ManagedObjectModel(entities: [vehicle, car, sportCar, person], versionIdentifiers: ["3", "three"])
        var template = FetchRequestTemplate(name: "expensive", entity: "Car",
                                            predicate: "price BETWEEN {10, 100} AND NOT (seats < 2 OR plate BEGINSWITH[c] \"X\")")
        template.options = ["resultType": "2", "returnDistinctResults": "YES", "fetchBatchSize": "20"]
        model.fetchRequests = [template, FetchRequestTemplate(name: "all", entity: "Person")]
        model.configurations = [Configuration(name: "Cloud", entities: ["Person", "Car"])]
        return model
    }

    static func archive(_ model: ManagedObjectModel) throws -> KeyedArchive {
        try KeyedArchive(data: try ModelArchiver.archive(model, predicates: PredicateArchiver()).data)
    }

    @Test func theModelRoundTrips() throws {
        let (decoded, encoded) = try ModelArchiverTests.roundTrip(Self.model)
        #expect(encoded.warnings == [] && decoded.warnings == [])
        #expect(modelDifferences(decoded.model, Self.model) == [])
        #expect(VersionHasher.entityHashes(of: decoded.model) == VersionHasher.entityHashes(of: Self.model))
        // The derivation is archived as momc compiles it.
        #expect(decoded.model.entity(named: "Car")?.attribute(named: "passengerCount")?.derivationExpression
                == "count:(passengers)")
    }

    @Test func flagsLimitsAndDefaultsAreWrittenAsMomcWritesThem() throws {
        let values = ModelArchiverAppleCacheTests.values(try Self.archive(Self.model))
        // plate: required, spotlight (0x100), a validation predicate and warning (0x10, 0x20 clear), userInfo
        // (0x40 clear), no modifier (0x80).
        #expect(values["Vehicle.plate._P"] == "int(385)")
        #expect(values["Vehicle.plate.NSFlagsKey"] == "int(3)")
        #expect(values["Vehicle.plate.NSMinValueName"] == "int(2)" && values["Vehicle.plate.NSMaxValueName"] == "int(12)")
        #expect(values["Vehicle.plate.NSValidationPredicates"] == "[<NSComparisonPredicate NSLeftExpression=<NSSelfExpression "
                + "NSExpressionType=int(1)>, NSPredicateOperator=<NSMatchingPredicateOperator NSModifier=int(0), "
                + "NSOperatorType=int(6), NSOptions=int(0)>, NSRightExpression=<NSConstantValueExpression "
                + "NSConstantValue=\"[A-Z0-9]+\", NSExpressionType=int(0)>>]")
        #expect(values["Vehicle.plate.NSValidationWarnings"] == "[int(1680)]")
        #expect(values["Vehicle.plate.NSRenamingIdentifier"] == "\"numberPlate\"")
        #expect(values["Vehicle.plate.NSUserInfo"] == "{a=\"1\", b=\"2\"}")
        #expect(values["Vehicle.plate.NSIndexedBySpotlight"] == "bool(true)")
        #expect(values["Vehicle.built.NSMinValueName"] == "real(-978307200.0)")
        #expect(values["Vehicle.built.NSDefaultValue"] == "<NSDate NS.time=real(0.0)>")
        // External storage 4, preserve after deletion 0x10; stored in truth 0x200 and cloud encryption 0x800.
        #expect(values["Vehicle.photo.NSFlagsKey"] == "int(20)")
        #expect(values["Vehicle.photo._P"] == "int(2803)")
        #expect(values["Car.price.NSDefaultValue"] == "<NSDecimalNumberPlaceholder NS.compact=bool(true), NS.exponent=int(-2), "
                + "NS.length=int(1), NS.mantissa=data([207, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), NS.mantissa.bo=int(1), "
                + "NS.negative=bool(false)>")
        #expect(values["Car.price.NSMinValueName"] == "real(0.5)" && values["Car.price.NSFlagsKey"] == "int(2)")
        #expect(values["Car.seats.NSDefaultValue"] == "int(4)" && values["Car.seats.NSVersionHashModifier"] == "\"v2\"")
        #expect(values["Car.seats._P"] == "int(113)" && values["Car.seats.NSIsIndexed"] == "bool(true)")
        #expect(values["Car.speed.NSDefaultValue"] == "real(1.5)" && values["Car.speed._P"] == "int(251)")
        #expect(values["Car.electric.NSDefaultValue"] == "bool(true)")
        #expect(values["Car.vin.NSDefaultValue"] == "<NSUUID NS.uuidbytes=data([107, 41, 252, 64, 202, 71, 16, 103, 179, 29, "
                + "0, 221, 1, 6, 98, 218])>")
        #expect(values["Car.site.NSDefaultValue"] == "<NSURL NS.base=nil, NS.relative=\"https://example.com/car\">")
        #expect(values["Car.colour.NSAttributeValueClassName"] == "\"UIColor\"")
        #expect(values["Car.colour.NSValueTransformerName"] == "\"ColourTransformer\"")
        #expect(values["Car.passengerCount.NSDerivationExpression"] == "<NSFunctionExpression NSArguments=[<NSKeyPathExpression "
                + "NSArguments=[<NSKeyPathSpecifierExpression NSExpressionType=int(10), NSKeyPath=\"passengers\">], "
                + "NSExpressionType=int(3), NSOperand=<NSSelfExpression NSExpressionType=int(1)>, NSSelectorName=\"valueForKey:\">], "
                + "NSExpressionType=int(4), NSOperand=<NSConstantValueExpression NSConstantValueClassName=\"_NSPredicateUtilities\", "
                + "NSExpressionType=int(0)>, NSSelectorName=\"count:\">")
        #expect(values["Car.passengers._P"] == "int(1267)")
        #expect(values["Car.passengers.NSDeleteRule"] == "int(3)")
        #expect(values["Car.passengers.NSMinCount"] == "int(1)" && values["Car.passengers.NSMaxCount"] == "int(7)")
        #expect(values["Car.NSIsAbstract"] == nil && values["Vehicle.NSIsAbstract"] == "bool(true)")
        #expect(values["Car.NSRenamingIdentifier"] == "\"Automobile\"" && values["Car.NSVersionHashModifier"] == "\"2024\"")
        #expect(values["Car.NSCompoundIndexes"] == "[[\"seats\", \"price\"]]")
        #expect(values["Vehicle.NSUniqueTuples"] == "[[\"plate\"]]")
        #expect(values["Vehicle.NSSubentities"] == "{Car=entity Car}" && values["Car.NSSuperentity"] == "entity Vehicle")
        #expect(values["Person.NSClassNameForEntity"] == "nil")
        #expect(values["Person.sameName._P"] == "int(253)")  // fetched: read-only and transient
    }

    /// Sub-entities list inherited properties as copies: the same values as the declaration, with NSEntity naming
    /// the sub-entity; an inverse declared on an inherited property points at the copy.
    @Test func inheritedPropertiesAreCopies() throws {
        let values = ModelArchiverAppleCacheTests.values(try Self.archive(Self.model))
        #expect(values["SportCar.NSProperties"] == "built,colour,electric,owner,passengerCount,passengers,photo,plate,price,seats,site,speed,vin")
        for key in values.keys where key.hasPrefix("Car.") && key.split(separator: ".").count == 3 {
            let copy = "SportCar." + key.dropFirst(4)
            if key.hasSuffix(".NSEntity") {
                #expect(values[key] == "entity Car" && values[copy] == "entity SportCar")
            } else {
                #expect(values[copy] == values[key], "\(copy)")
            }
        }
        #expect(values["Person.favourite.NSInverseRelationship"] == "property SportCar.owner")
        #expect(values["Person.vehicles.NSInverseRelationship"] == "property Vehicle.owner")
        #expect(values["Vehicle.owner.NSInverseRelationship"] == "property Person.vehicles")
        #expect(values["SportCar.owner.NSInverseRelationship"] == "property Person.vehicles")
    }

    @Test func predicatesAndExpressionsAreArchivedAsFoundationObjects() throws {
        let archive = try Self.archive(Self.model)
        let templates = try #require(archive.dictionary(archive.fields(archive.root)["NSFetchRequestTemplates"]))
        let expensive = try #require(archive.reference(templates.first { $0.key == "expensive" }?.value))
        let fields = archive.fields(expensive)
        #expect(archive.int(fields["NSFetchRequestFlags"]) == 15 && archive.int(fields["NSResultType"]) == 2)
        #expect(archive.int(fields["NSBatchSize"]) == 20)
        let decoded = try ModelCacheDecoder.decode(try RawDeflate.deflate(try ModelArchiver.archive(Self.model,
                                                                                                    predicates: PredicateArchiver()).data))
        #expect(decoded.model.fetchRequests.first { $0.name == "expensive" }?.predicate
                == "price BETWEEN {10, 100} AND (NOT (seats < 2 OR plate BEGINSWITH[c] \"X\"))")
        #expect(decoded.model.entity(named: "Person")?.fetchedProperties.first?.fetchRequest.predicate
                == "ANY passengers.name ==[cd] $NAME")
        #expect(decoded.model.entity(named: "Car")?.fetchIndexes.first?.partialIndexPredicate == "seats > 2")
    }

    @Test func theArchiveIsDeterministic() throws {
        let first = try ModelCacheEncoder.encode(Self.model, predicates: PredicateArchiver())
        for _ in 0..<3 {
            #expect(try ModelCacheEncoder.encode(Self.model, predicates: PredicateArchiver()).data == first.data)
        }
        // The same model with its entities and properties listed in another order gives the same bytes.
        var shuffled = Self.model
        shuffled.entities.reverse()
        shuffled.entities = shuffled.entities.map { e in
            var e = e
            e.attributes.reverse()
            e.relationships.reverse()
            return e
        }
        #expect(try ModelCacheEncoder.encode(shuffled, predicates: PredicateArchiver()).data == first.data)
        // Raw DEFLATE, no zlib header: it inflates with window bits -15 only.
        #expect(try RawInflate.inflate(first.data) == (try ModelArchiver.archive(Self.model, predicates: PredicateArchiver()).data))
    }

    @Test func predicateTextNeedsAnArchiverAndASupportedConstruct() throws {
        #expect(throws: ModelError(.unsupportedFormat, "the derivation expression: no predicate archiver was given",
                                   entity: "Car", property: "passengerCount")) {
            try ModelArchiver.archive(Self.model)
        }
        var model = ManagedObjectModel(entities: [Entity(name: "A", attributes: [Attribute(name: "n", type: .integer64)])])
        model.entities[0].attributes[0].derivationExpression = "SUBQUERY(items, $i, $i.x > 1).@count"
        let error = try #require(throws: ModelError.self) { try ModelArchiver.archive(model, predicates: PredicateArchiver()) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.description == "entity 'A', property 'n': the derivation expression cannot be archived: "
                + "'SUBQUERY(items, $i, $i.x > 1)' is not archived (only constants, SELF, key paths, variables, aggregates "
                + "and functions are)")
        // A model without predicate text needs no archiver.
        #expect(throws: Never.self) { try ModelArchiver.archive(ManagedObjectModel(entities: [Entity(name: "A")])) }
    }

    @Test func decimalDefaultsMatchNSDecimalNumber() throws {
        for (text, words, exponent, negative) in [("0.0", [UInt16](), -1, false), ("19.99", [1999], -2, false),
                                                  ("-0.5", [5], -1, true), ("1e3", [1], 3, false),
                                                  ("123456789012", [0x1A14, 0xBE99, 0x1C], 0, false)] as [(String, [UInt16], Int64, Bool)] {
            let fields = try #require(DecimalNumberFields(text), "\(text)")
            #expect(fields.words == words && fields.exponent == exponent && fields.negative == negative, "\(text)")
        }
        for text in ["", "abc", "1.2.3", "1e999", String(repeating: "9", count: 39)] {
            #expect(DecimalNumberFields(text) == nil, "\(text)")
        }
    }

    @Test func anUnwrittenReferenceIsRefused() throws {
        var builder = KeyedArchiveBuilder()
        let dangling = builder.reference("nowhere")
        let root = builder.array([dangling])
        let error = #expect(throws: KeyedArchiveBuilder.Failure.self) { try builder.archive(root: root) }
        #expect(error?.description == "the archive refers to 'nowhere', which was never written")
    }
}
