import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// Differential test: the layout of every model version in the corpus (about 270 versions, from tiny to 88
/// entities) against the reference checker `predict.py`, which implements the same rules in Python and
/// reproduces 44 of 45 real stores (coredata-format.md §1.6). The checker reads keyed archives; the adapter
/// below feeds it the Xcode XML with name-ordered property dictionaries, as our builder uses for XML.
@Suite("Store layout against the reference checker")
struct LayoutOracleTests {
    static let checker = Corpus.tools
    static var available: Bool {
        FileManager.default.fileExists(atPath: checker.appendingPathComponent("predict.py").path)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    /// Every `contents` file of every `.xcdatamodel` of the corpus.
    static func modelVersions() throws -> [URL] {
        try Corpus.allModelVersions().map { $0.appendingPathComponent("contents") }
    }

    @Test("Every corpus model version gives the layout predict.py gives",
          .enabled(if: available, "no ../shared/tools/coredata/predict.py, or no /usr/bin/python3"))
    func matchesReference() throws {
        let versions = try Self.modelVersions()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("xml_predict.py")
        try Self.adapter.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, Self.checker.path] + versions.map(\.path)
        let output = directory.appendingPathComponent("out.json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        let data = try Data(contentsOf: output)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        var exact = 0, compared = 0
        for version in versions {
            guard let reference = json[version.path], reference["error"] == nil,
                  let model = try? ModelLoader.load(version.path).model else { continue }
            compared += 1
            let layout = StoreLayout(model: model)
            var problems: [String] = []
            let ids = reference["ids"] as? [String: Int] ?? [:]
            let supers = reference["supers"] as? [String: Int] ?? [:]
            for entity in layout.entities where ids[entity.name] != entity.number || supers[entity.name] != entity.superNumber {
                problems.append("\(entity.name) #\(entity.number)/\(entity.superNumber)")
            }
            let tables = reference["tables"] as? [String: [String: String]] ?? [:]
            let mine = Dictionary(uniqueKeysWithValues: layout.tables.map { table in
                (table.name, Dictionary(uniqueKeysWithValues: table.columns
                    .filter { !["Z_PK", "Z_ENT", "Z_OPT"].contains($0.name) }.map { ($0.name, $0.type) }))
            })
            for name in Set(tables.keys).union(mine.keys).sorted() where tables[name] != mine[name] {
                problems.append("\(name): reference \(tables[name]?.keys.sorted() ?? []) layout \(mine[name]?.keys.sorted() ?? [])")
            }
            if problems.isEmpty { exact += 1 }
            #expect(problems.isEmpty, "\(version.deletingLastPathComponent().lastPathComponent): \(problems)")
        }
        print("layout: \(exact)/\(compared) corpus model versions match predict.py exactly")
        #expect(compared >= 250)
    }

    /// Runs predict.py's algorithm on Xcode model XML.
    static let adapter = #"""
# Runs predict.py's layout algorithm on Xcode model XML (property dictionary order = name order).
import json, os, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import predict as p

CODES = {'Integer 16': 100, 'Integer 32': 200, 'Integer 64': 300, 'Decimal': 400, 'Double': 500, 'Float': 600,
         'String': 700, 'Boolean': 800, 'Date': 900, 'Binary': 1000, 'UUID': 1100, 'URI': 1200,
         'Transformable': 1800, 'Undefined': 0, 'ObjectID': 2000, 'Composite': 2100}

def load(path):
    root = ET.parse(path).getroot()
    ents = {}
    for e in root.iter('entity'):
        E = p.Entity(); E.name = e.get('name'); E.parent = e.get('parentEntity'); E.own = []
        for a in e.findall('attribute'):
            E.own.append(p.Prop(name=a.get('name'), kind='attr', transient=a.get('transient') == 'YES',
                                atype=CODES.get(a.get('attributeType') or 'Undefined', 0)))
        for r in e.findall('relationship'):
            E.own.append(p.Prop(name=r.get('name'), kind='rel', transient=r.get('transient') == 'YES',
                                ordered=r.get('ordered') == 'YES', tomany=r.get('toMany') == 'YES',
                                dest=r.get('destinationEntity'), inverse=r.get('inverseName'), inverse_tomany=None))
        ents[E.name] = E
    for E in ents.values():
        E.sup = ents.get(E.parent) if E.parent else None
    for E in ents.values():
        E.subs = sorted((x for x in ents.values() if x.sup is E), key=lambda x: x.name.lower())
    for E in ents.values():
        chain = []; s = E
        while s is not None: chain.append(s); s = s.sup
        byname = {}
        for s in reversed(chain):
            for q in s.own: byname[q.name] = q
        E.props = [byname[n] for n in sorted(byname, key=lambda n: n.encode('utf-16-be'))]
        E.byname = byname
    for E in ents.values():
        for q in E.props:
            if q.kind == 'rel' and q.inverse and q.inverse_tomany is None:
                inv = ents[q.dest].byname.get(q.inverse) if q.dest in ents else None
                q.inverse_tomany = inv is not None and inv.kind == 'rel' and inv.tomany
    # drop properties without a column in our port: undefined/objectID/composite attributes
    for E in ents.values():
        E.props = [q for q in E.props if not (q.kind == 'attr' and q.atype in (0, 2000, 2100) and not q.transient)]
    return ents

out = {}
for path in sys.argv[2:]:
    try:
        ents = load(path)
        p.load_model = lambda ka, ents=ents: ents
        ids, supers, tables = p.generate(None)
        out[path] = {'ids': ids, 'supers': supers, 'tables': tables}
    except Exception as e:
        out[path] = {'error': repr(e)}
json.dump(out, sys.stdout)
"""#
}
