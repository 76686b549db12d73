import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// A mapping model that splits an entity: `NoteToNote` keeps every note, `NoteToAttachment` makes an Attachment
/// of each note that has an image (its filter), linked back to the note it came from by
/// `destinationInstancesForEntityMappingNamed:"NoteToNote"` of `$source` itself. The fixture is the shape of the
/// heavyweight-migration example most tutorials teach.
@Suite struct SplitMigrationTests {
    static let fixture = Fixtures.root.appendingPathComponent("NoteSplit")
    let folder: URL
    let notes: URL
    static let pixels = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A])

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdstore-split-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: folder.appendingPathComponent("NoteSplit"))
        notes = folder.appendingPathComponent("NoteSplit/Notes.xcdatamodeld")
    }

    /// Three notes of the first version: two with an image, one without.
    func notesStore() throws -> String {
        let path = folder.appendingPathComponent("Notes.sqlite").path
        let store = try CDStore(path: path, model: .path(notes.path, version: "Notes"), options: [.create])
        try store.write { ctx throws in
            _ = try ctx.insert("Note", ["title": "a", "body": "x", "image": Self.pixels, "created": Date(timeIntervalSinceReferenceDate: 100)])
            _ = try ctx.insert("Note", ["title": "b"])
            _ = try ctx.insert("Note", ["title": "c", "image": Data([1, 2, 3])])
        }
        return path
    }

    @Test func eachNoteWithAnImageGetsAnAttachmentLinkedToIt() throws {
        let path = try notesStore()
        let plan = try CDStore.migrate(storeAt: path, to: .path(notes.path), backup: false)
        #expect(Array(plan.summary.dropFirst().prefix(2)) == [
            "  NoteToAttachment (Note → Attachment): 2 taken, 2 created, 1 left behind",
            "  NoteToNote (Note → Note): 3 taken, 3 created, 0 left behind",
        ])
        let store = try CDStore(path: path, model: .path(notes.path))
        try store.read { ctx throws in
            let all = try ctx.fetch("Note").sorted { ($0.string("title") ?? "") < ($1.string("title") ?? "") }
            #expect(all.map { $0.string("title") } == ["a", "b", "c"])
            #expect(all.map(\.objectID.primaryKey) == [1, 2, 3])
            let attachments = try ctx.fetch("Attachment").sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
            #expect(attachments.map(\.objectID.primaryKey) == [1, 2])
            #expect(attachments.map { $0.data("image") } == [Self.pixels, Data([1, 2, 3])])
            #expect(attachments.map { $0.date("created") } == [Date(timeIntervalSinceReferenceDate: 100), nil])
            // What the mapping does not set comes from the model's defaults, as for any new object.
            #expect(attachments.map { $0.string("kind") } == ["image", "image"])
            #expect(attachments.map { $0.related("note") } == [all[0].objectID, all[2].objectID])
            #expect(all.map { $0.relatedMany("attachments") } == [[attachments[0].objectID], [], [attachments[1].objectID]])
        }
        #expect(try store.verify().isEmpty)
        // The next Attachment takes the key after the split's (Z_PRIMARYKEY's Z_MAX was raised).
        let next = try store.write { ctx throws in try ctx.insert("Attachment", ["image": Data([9])]) }
        #expect(next.primaryKey == 3)
    }

    /// A filter on a Binary attribute, on the mapping that keeps the keys: the notes with an image stay (a filter the
    /// evaluator ran saw no value in any Binary attribute and dropped every note), and `$source.` in a filter still
    /// reads the source object.
    @Test(arguments: [("image != nil", ["a", "c"]), ("$source.image == nil OR $source.title == 'a'", ["a", "b"])])
    func aFilterOnTheKeyKeepingMappingSeesBinaryValues(filter: String, kept: [String]) throws {
        let path = try notesStore()
        let mappingFile = folder.appendingPathComponent("NoteSplit/Notes1to2.xcmappingmodel/xcmapping.xml")
        let original = try String(contentsOf: mappingFile, encoding: .utf8)
        let onlyNotes = original.replacingOccurrences(of: #"idrefs="e1 e2""#, with: #"idrefs="e2""#)
            .replacingOccurrences(of: #"<attribute name="name" type="string">NoteToNote</attribute>"#,
                                  with: #"<attribute name="name" type="string">NoteToNote</attribute>"#
                                    + #"<attribute name="sourcefilterpredicatestring" type="string">\#(filter.replacingOccurrences(of: "'", with: "&apos;"))</attribute>"#)
        #expect(onlyNotes != original)
        try onlyNotes.write(to: mappingFile, atomically: true, encoding: .utf8)
        let plan = try CDStore.migrate(storeAt: path, to: .path(notes.path), backup: false)
        #expect(plan.summary.contains("  NoteToNote (Note → Note): 2 taken, 2 created, 1 left behind"))
        let store = try CDStore(path: path, model: .path(notes.path), options: [.readOnly])
        #expect(try store.read { try $0.fetch("Note").compactMap { $0.string("title") }.sorted() } == kept)
    }

    @Test func aSplitThatNeedsMoreThanCopiesIsRefusedAndTheStoreLeftAsItWas() throws {
        let path = try notesStore()
        let mappingFile = folder.appendingPathComponent("NoteSplit/Notes1to2.xcmappingmodel/xcmapping.xml")
        let original = try String(contentsOf: mappingFile, encoding: .utf8)
        let keyPath = #"<attribute name="sourcekeypath" type="string">$source</attribute>"#
        #expect(original.contains(keyPath))
        try original.replacingOccurrences(of: keyPath, with: #"<attribute name="sourcekeypath" type="string">$source.title</attribute>"#)
            .write(to: mappingFile, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CDStoreError.self) { try CDStore.migrate(storeAt: path, to: .path(notes.path), backup: false) }
        do {
            _ = try CDStore.migrate(storeAt: path, to: .path(notes.path), backup: false)
        } catch let error as CDStoreError {
            #expect(error.message.contains("entity mapping 'NoteToAttachment' makes new Attachment objects from Note objects that "
                                           + "'NoteToNote' also takes (an entity split); its relationship 'note'"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
