import CDStoreModel
import CDStorePredicate
import CDStoreTestSupport
import Foundation
import Testing

/// Foundation's `predicateFormat` of XML text, through cdstore's predicate parser and printer.
let foundationFormat: @Sendable (String, Bool) -> String? = { text, isPredicate in
    if isPredicate { return (try? PredicateParser.parse(text)).map { PredicateFormatter.format($0) } }
    return (try? PredicateParser.parseExpression(text)).map { PredicateFormatter.format($0) }
}

/// Normalises both models (``ModelComparison``) and lists the differences, entity by entity.
func modelDifferences(_ a: ManagedObjectModel, _ b: ManagedObjectModel) -> [String] {
    let x = ModelComparison.normalised(a, expressionFormatter: foundationFormat)
    let y = ModelComparison.normalised(b, expressionFormatter: foundationFormat)
    guard x != y else { return [] }
    var result: [String] = []
    if x.entities.map(\.name) != y.entities.map(\.name) {
        result.append("entities: \(x.entities.map(\.name)) vs \(y.entities.map(\.name))")
    }
    for e in x.entities {
        guard let f = y.entities.first(where: { $0.name == e.name }), e != f else { continue }
        for attr in e.attributes where f.attribute(named: attr.name) != attr {
            result.append("\(e.name).\(attr.name): \(attr) vs \(String(describing: f.attribute(named: attr.name)))")
        }
        for rel in e.relationships where f.relationship(named: rel.name) != rel {
            result.append("\(e.name).\(rel.name): \(rel) vs \(String(describing: f.relationship(named: rel.name)))")
        }
        var e2 = e, f2 = f
        e2.attributes = []; f2.attributes = []; e2.relationships = []; f2.relationships = []
        if e2 != f2 { result.append("\(e.name): \(e2) vs \(f2)") }
        if e.attributes.count != f.attributes.count || e.relationships.count != f.relationships.count {
            result.append("\(e.name): property counts differ")
        }
    }
    if x.fetchRequests != y.fetchRequests { result.append("fetch requests: \(x.fetchRequests) vs \(y.fetchRequests)") }
    if x.configurations != y.configurations { result.append("configurations: \(x.configurations) vs \(y.configurations)") }
    if x.versionIdentifiers != y.versionIdentifiers {
        result.append("version identifiers: \(x.versionIdentifiers) vs \(y.versionIdentifiers)")
    }
    return result.isEmpty ? ["models differ"] : result
}

func base64Hashes(_ hashes: [String: [UInt8]]) -> [String: String] {
    hashes.mapValues { Data($0).base64EncodedString() }
}

@Suite(.serialized) struct CompiledModelTests {
    /// (momd, version, source `.xcdatamodel`) for every `.mom` in the corpus, from the manifest.
    static func compiledVersions() throws -> [(momd: URL, version: String, source: URL)] {
        var result: [(URL, String, URL)] = []
        for item in try Corpus.manifestItems(kind: "compiled") {
            let momd = Corpus.root.appendingPathComponent(item["path"] as! String)
            for (mom, info) in item["moms"] as? [String: [String: Any]] ?? [:] {
                let source = Corpus.root.appendingPathComponent(info["source_version"] as! String)
                result.append((momd, String(mom.dropLast(4)), source.deletingLastPathComponent()))
            }
        }
        return result.sorted { $0.0.path + $0.1 < $1.0.path + $1.1 }
    }

    @Test func everyCompiledModelEqualsItsSource() throws {
        let versions = try Self.compiledVersions()
        #expect(versions.count == 4)
        for (momd, version, source) in versions {
            let compiled = try ModelLoader.load(momd.path, version: version)
            #expect(compiled.format == .compiled)
            #expect(compiled.versionName == version)
            let xml = try ModelLoader.load(source.path)
            let differences = modelDifferences(compiled.model, xml.model)
            #expect(differences.isEmpty, "\(momd.lastPathComponent)/\(version):\n\(differences.joined(separator: "\n"))")
            // The property order of the archive covers every property of each entity.
            for entity in compiled.model.entities {
                let own = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name)
                              + entity.fetchedProperties.map(\.name))
                #expect(Set(compiled.propertyOrder[entity.name] ?? []).isSuperset(of: own))
            }
        }
    }

    @Test func versionHashesEqualVersionInfo() throws {
        var checked = 0, matchedCompiled = 0, matchedXML = 0
        for (momd, version, source) in try Self.compiledVersions() {
            let info = try #require(try CompiledModelLoader.versionInfo(ofMomd: momd))
            let expected = base64Hashes(try #require(info.versionHashes[version]))
            let compiled = try ModelLoader.load(momd.path, version: version).model
            let xml = try ModelLoader.load(source.path).model
            let fromCompiled = base64Hashes(VersionHasher.entityHashes(of: compiled))
            let fromXML = base64Hashes(VersionHasher.entityHashes(of: xml))
            for (entity, hash) in expected {
                checked += 1
                if fromCompiled[entity] == hash { matchedCompiled += 1 }
                if fromXML[entity] == hash { matchedXML += 1 }
                #expect(fromCompiled[entity] == hash, "\(momd.lastPathComponent)/\(version) \(entity) (compiled)")
                #expect(fromXML[entity] == hash, "\(momd.lastPathComponent)/\(version) \(entity) (XML)")
            }
            #expect(fromCompiled.count == expected.count)
            if let checksum = info.versionChecksums[version] {
                #expect(VersionHasher.versionChecksum(of: compiled) == checksum)
                #expect(VersionHasher.versionChecksum(of: xml) == checksum)
            }
        }
        print("CompiledModelTests: \(checked) VersionInfo entity hashes; compiled model matches \(matchedCompiled), "
              + "source XML matches \(matchedXML)")
        #expect(checked == 17)
    }

    @Test func derivedAttributesHashTheirFoundationFormat() throws {
        let url = Corpus.compiled.appendingPathComponent("SwiftGen__SwiftGen__Model.momd")
        let model = try ModelLoader.load(url.path).model
        let child = try #require(model.entity(named: "ChildEntity"))
        #expect(child.attribute(named: "derivedCount")?.derivationExpression == "count:(oneToMany)")
        #expect(child.attribute(named: "now")?.derivationExpression == "now()")
        #expect(child.attribute(named: "canonicalOptionalString")?.derivationExpression == "canonical:(optionalString)")
        #expect(VersionHasher.canonicalDerivation("oneToMany.@count") == "count:(oneToMany)")
        #expect(VersionHasher.rewritingCollectionOperators("a.b.@count") == "count:(a.b)")
        #expect(VersionHasher.rewritingCollectionOperators("now()") == "now()")
    }

    @Test func momdWithoutCurrentVersionUsesItsOnlyMom() throws {
        let url = Corpus.compiled.appendingPathComponent("Karim-ezzedine__CartKit__CartStorage-48ffe53.momd")
        #expect(try CompiledModelLoader.versionInfo(ofMomd: url)?.currentVersionName == nil)
        let loaded = try ModelLoader.load(url.path)
        #expect(loaded.versionName == "CartStorage")
        #expect(loaded.model.entities.map(\.name) == ["CDCart", "CDCartItem", "CDCartItemModifier"])
    }

    @Test func swiftGenDetails() throws {
        let url = Corpus.compiled.appendingPathComponent("SwiftGen__SwiftGen__Model.momd")
        let loaded = try ModelLoader.load(url.path)
        #expect(loaded.versionName == "Model 2")
        #expect(loaded.availableVersions == ["Model", "Model 2"])
        let model = loaded.model
        let main = try #require(model.entity(named: "MainEntity"))
        #expect(main.attribute(named: "decimal")?.defaultValue == "0.0")
        #expect(main.attribute(named: "boolean")?.defaultValue == nil)
        #expect(main.attribute(named: "int16")?.defaultValue == "0")
        #expect(main.relationship(named: "oneToMany")?.isOrdered == true)
        #expect(main.fetchedProperties.first?.fetchRequest.entity == "NewEntity")
        let request = try #require(model.fetchRequests.first { $0.name == "ObjectIDFetchRequest" })
        #expect(request.predicate == "oneToOne.name == $NAME OR string == $NEEDLE")
        #expect(request.options == ["resultType": "1"])
        let newEntity = try #require(model.entity(named: "NewEntity"))
        #expect(newEntity.parentName == "AbstractEntity")
        #expect(newEntity.uniquenessConstraints == [["identifier"]])
        #expect(newEntity.fetchIndexes.first?.elements.first?.property == "identifier")
        #expect(model.configurations == [Configuration(name: "Custom", entities: ["NewEntity"])])
        // Sub-entities of a .mom list only their own properties.
        #expect(model.entity(named: "ChildEntity")?.relationships.isEmpty == true)
        #expect(model.entity(named: "ChildEntity")?.attributes.count == 3)
    }
}

/// The models Core Data caches inside the corpus stores (`Z_MODELCACHE`).
@Suite struct ModelCacheTests {
    struct StoreCache {
        var store: String
        var blob: Data
        var hashes: [String: String]
    }

    /// Reads `Z_MODELCACHE.Z_CONTENT` and `NSStoreModelVersionHashes` of a copy of `store` with Python's sqlite3.
    static func readCache(_ store: URL) throws -> StoreCache? {
        let copy = try Corpus.copyStore(store)
        let script = """
        import sqlite3, plistlib, base64, json, sys
        con = sqlite3.connect(sys.argv[1])
        names = [r[0] for r in con.execute("select name from sqlite_master where type='table'")]
        blob = None
        if 'Z_MODELCACHE' in names:
            row = con.execute('select Z_CONTENT from Z_MODELCACHE').fetchone()
            blob = row[0] if row else None
        plist = con.execute('select Z_PLIST from Z_METADATA').fetchone()[0]
        meta = plistlib.loads(plist) if plist else {}
        hashes = {k: base64.b64encode(v).decode() for k, v in meta.get('NSStoreModelVersionHashes', {}).items()}
        print(json.dumps({'blob': base64.b64encode(blob).decode() if blob else None, 'hashes': hashes}))
        """
        let result = try ProcessRunner.python(script, [copy.path])
        guard result.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: ["stderr": result.stderr]) }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        guard let blob = json["blob"] as? String else { return nil }
        return StoreCache(store: store.lastPathComponent, blob: Data(base64Encoded: blob)!,
                          hashes: json["hashes"] as? [String: String] ?? [:])
    }

    @Test func everyStoreCacheDecodesWithTheStoresHashes() throws {
        var decoded = 0, hashesChecked = 0, hashesMatched = 0, comparedWithSource = 0
        for item in try Corpus.manifestItems(kind: "store") {
            let store = Corpus.root.appendingPathComponent(item["path"] as! String)
            guard let cache = try Self.readCache(store) else { continue }
            let loaded = try ModelCacheDecoder.decode(cache.blob, file: store)
            decoded += 1
            #expect(loaded.format == .storeCache)
            let hashes = base64Hashes(VersionHasher.entityHashes(of: loaded.model))
            #expect(hashes.count == cache.hashes.count)
            for (entity, hash) in cache.hashes {
                hashesChecked += 1
                if hashes[entity] == hash { hashesMatched += 1 }
                #expect(hashes[entity] == hash, "\(cache.store) \(entity)")
            }
            // The cache lists inherited properties too; the archive order covers all properties of each entity.
            for entity in loaded.model.entities {
                let all = loaded.model.attributes(of: entity).map(\.name) + loaded.model.relationships(of: entity).map(\.name)
                #expect(Set(loaded.propertyOrder[entity.name] ?? []).isSuperset(of: all))
            }
            if let version = item["matches_model_version"] as? String {
                let xml = try ModelLoader.load(Corpus.root.appendingPathComponent(version).path)
                let differences = modelDifferences(loaded.model, xml.model)
                #expect(differences.isEmpty, "\(cache.store):\n\(differences.joined(separator: "\n"))")
                comparedWithSource += 1
            }
        }
        print("ModelCacheTests: \(decoded) model caches decoded; \(hashesMatched)/\(hashesChecked) entity hashes equal "
              + "NSStoreModelVersionHashes; \(comparedWithSource) compared with their source model")
        #expect(decoded == 4)
        #expect(hashesChecked == hashesMatched)
    }
}
