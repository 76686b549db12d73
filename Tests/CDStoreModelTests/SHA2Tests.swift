@testable import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// The SHA-2 functions the version hashes use: the examples of FIPS 180-4 (NIST's "Example Algorithms"), coreutils'
/// `sha256sum` and `sha512sum` on random messages of every length across the block and padding boundaries, and a
/// message given in pieces hashing as the whole.
@Suite struct SHA2Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256Examples(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(data: Array(message.utf8))) == digest)
    }

    @Test(arguments: [
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
            + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
            + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
    ])
    func sha512Examples(message: String, digest: String) {
        #expect(Self.hex(SHA512.hash(data: Array(message.utf8))) == digest)
    }

    /// A million "a", given in pieces of 1,000 bytes: the standard's long example, and many updates.
    @Test func millionAs() {
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        var sha256 = SHA256(), sha512 = SHA512()
        for _ in 0 ..< 1000 {
            sha256.update(data: piece)
            sha512.update(data: piece)
        }
        #expect(Self.hex(sha256.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(Self.hex(sha512.finalize()) == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    /// Random messages of 0 to 300 bytes (every padding case of both block sizes, one to three blocks), hashed here
    /// and by coreutils, which has its own implementation.
    @Test(arguments: ["sha256sum", "sha512sum"])
    func agreesWithCoreutils(program: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sha2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SeededGenerator(state: 180_4)
        var expected: [String] = []
        var paths: [String] = []
        for length in 0 ... 300 {
            let message = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let path = folder.appendingPathComponent("\(length)").path
            try Data(message).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            expected.append(Self.hex(program == "sha256sum" ? SHA256.hash(data: message) : SHA512.hash(data: message)))
        }
        let result = try ProcessRunner.run(program, paths)
        try #require(result.status == 0, "\(program) failed: \(result.stderr)")
        let digests = result.stdout.split(separator: "\n").map { String($0.prefix(while: { $0 != " " })) }
        #expect(digests.count == expected.count)
        for (length, (theirs, ours)) in zip(digests, expected).enumerated() {
            #expect(theirs == ours, "\(program) of a \(length)-byte message")
        }
    }

    /// A message split anywhere hashes as the whole; `finalize()` leaves the message open to more.
    @Test func piecesHashAsTheWhole() {
        var generator = SeededGenerator(state: 2)
        let message = (0 ..< 333).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let whole256 = SHA256.hash(data: message), whole512 = SHA512.hash(data: message)
        for split in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 200, 333] {
            var sha256 = SHA256(), sha512 = SHA512()
            sha256.update(data: Array(message[..<split]))
            sha512.update(data: Array(message[..<split]))
            #expect(sha256.finalize() == SHA256.hash(data: Array(message[..<split])))
            sha256.update(data: Array(message[split...]))
            sha512.update(data: Array(message[split...]))
            #expect(sha256.finalize() == whole256, "split at \(split)")
            #expect(sha512.finalize() == whole512, "split at \(split)")
        }
    }
}
