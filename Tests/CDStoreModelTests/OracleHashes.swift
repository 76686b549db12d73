import CDStoreTestSupport
import Foundation
import Testing

/// Reference hashes from outside cdstore: the Python oracle and real stores' metadata.
enum OracleHashes {
    /// `xml_hash.py`'s entity hashes (base64) for each `contents` file, keyed by path, computed by one Python
    /// process that imports the oracle (one process per file would take far longer for 266 files).
    static func fromXML(_ paths: [String]) throws -> [String: [String: String]] {
        let script = """
        import base64, xml_hash
        for path in sys.argv[1:]:
            for name, digest in sorted(xml_hash.entity_hashes(path).items()):
                print(path + '\\t' + name + ' ' + base64.b64encode(digest).decode())
        """
        let result = try ProcessRunner.python(script, paths)
        try #require(result.status == 0, "xml_hash.py failed: \(result.stderr)")
        var hashes: [String: [String: String]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            let nameAndHash = parts[1].split(separator: " ")
            hashes[String(parts[0]), default: [:]][String(nameAndHash[0])] = String(nameAndHash[1])
        }
        return hashes
    }

    /// What a store's `Z_METADATA.Z_PLIST` says about its model.
    struct StoreMetadata {
        var hashes: [String: String]
        var checksum: String?
        var digest: String?
    }

    /// Reads the metadata of a copy of `store` with Python's sqlite3 and plistlib.
    static func storeMetadata(_ store: URL) throws -> StoreMetadata {
        let copy = try Corpus.copyStore(store)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let script = """
        import base64, json, plistlib, sqlite3
        db = sqlite3.connect(sys.argv[1])
        plist = plistlib.loads(db.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])
        print(json.dumps({
            'hashes': {k: base64.b64encode(v).decode() for k, v in plist['NSStoreModelVersionHashes'].items()},
            'checksum': plist.get('NSStoreModelVersionChecksumKey'),
            'digest': plist.get('NSStoreModelVersionHashesDigest')}))
        """
        let result = try ProcessRunner.python(script, [copy.path])
        try #require(result.status == 0, "reading \(store.lastPathComponent) failed: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return StoreMetadata(hashes: json["hashes"] as? [String: String] ?? [:], checksum: json["checksum"] as? String,
                             digest: json["digest"] as? String)
    }
}
