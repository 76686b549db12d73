/// SHA-256 as FIPS 180-4 defines it (§6.2), one of the two hash functions Core Data's version hashes use
/// (``VersionHasher``); ``SHA512`` is the other.
///
/// Written here rather than taken from swift-crypto: its BoringSSL is hundreds of C files that every package using
/// the library would compile, for a few hundred bytes hashed per entity (docs/decisions/0017-own-sha2.md). The two
/// functions are written out for their own word types, not as one generic function: unspecialised generic
/// arithmetic made a debug build's hashing, which the tests run, about five times slower. The tests check the
/// standard's examples and agree with coreutils' `sha256sum` and `sha512sum` on random messages.
struct SHA256 {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var message = MessageBlocks(blockSize: 64, lengthFieldSize: 8)

    /// The hash of `data` (32 bytes).
    static func hash(data: [UInt8]) -> [UInt8] {
        var sha = SHA256()
        sha.update(data: data)
        return sha.finalize()
    }

    /// Appends `data` to the message.
    mutating func update(data: [UInt8]) {
        compress(message.append(data))
    }

    /// The hash of the message so far (32 bytes); the message can go on.
    func finalize() -> [UInt8] {
        var last = self
        last.compress(message.paddedTail())
        return last.state.flatMap { word in (0 ..< 4).map { UInt8(truncatingIfNeeded: word &>> (24 - 8 * $0)) } }
    }

    /// K (§4.2.2), one per round.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Whole blocks into the hash value (§6.2.2).
    private mutating func compress(_ blocks: [UInt8]) {
        guard !blocks.isEmpty else { return }
        var schedule = [UInt32](repeating: 0, count: 64)
        blocks.withUnsafeBufferPointer { bytes in
            Self.roundConstants.withUnsafeBufferPointer { k in
                schedule.withUnsafeMutableBufferPointer { w in
                    for start in stride(from: 0, to: bytes.count, by: 64) {
                        for t in 0 ..< 16 {
                            let i = start + 4 * t
                            w[t] = UInt32(bytes[i]) &<< 24 | UInt32(bytes[i + 1]) &<< 16 | UInt32(bytes[i + 2]) &<< 8
                                | UInt32(bytes[i + 3])
                        }
                        for t in 16 ..< 64 {
                            let w15 = w[t - 15], w2 = w[t - 2]
                            let sigma0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 &>> 3)
                            let sigma1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 &>> 10)
                            w[t] = w[t - 16] &+ sigma0 &+ w[t - 7] &+ sigma1
                        }
                        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5],
                                                        state[6], state[7])
                        for t in 0 ..< 64 {
                            let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g))
                                &+ k[t] &+ w[t]
                            let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                        }
                        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
                        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
                    }
                }
            }
        }
    }

    /// ROTR (§3.2): `word` rotated right by `count` bits.
    private func rotate(_ word: UInt32, _ count: UInt32) -> UInt32 {
        word &>> count | word &<< (32 &- count)
    }
}

/// SHA-512 as FIPS 180-4 defines it (§6.4); see ``SHA256``.
struct SHA512 {
    private var state: [UInt64] = [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]
    private var message = MessageBlocks(blockSize: 128, lengthFieldSize: 16)

    /// The hash of `data` (64 bytes).
    static func hash(data: [UInt8]) -> [UInt8] {
        var sha = SHA512()
        sha.update(data: data)
        return sha.finalize()
    }

    /// Appends `data` to the message.
    mutating func update(data: [UInt8]) {
        compress(message.append(data))
    }

    /// The hash of the message so far (64 bytes); the message can go on.
    func finalize() -> [UInt8] {
        var last = self
        last.compress(message.paddedTail())
        return last.state.flatMap { word in (0 ..< 8).map { UInt8(truncatingIfNeeded: word &>> (56 - 8 * $0)) } }
    }

    /// K (§4.2.3), one per round.
    private static let roundConstants: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
        0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
        0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
        0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
        0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
        0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
        0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
        0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
        0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
        0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
        0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]

    /// Whole blocks into the hash value (§6.4.2).
    private mutating func compress(_ blocks: [UInt8]) {
        guard !blocks.isEmpty else { return }
        var schedule = [UInt64](repeating: 0, count: 80)
        blocks.withUnsafeBufferPointer { bytes in
            Self.roundConstants.withUnsafeBufferPointer { k in
                schedule.withUnsafeMutableBufferPointer { w in
                    for start in stride(from: 0, to: bytes.count, by: 128) {
                        for t in 0 ..< 16 {
                            var word: UInt64 = 0
                            for i in start + 8 * t ..< start + 8 * t + 8 { word = word &<< 8 | UInt64(bytes[i]) }
                            w[t] = word
                        }
                        for t in 16 ..< 80 {
                            let w15 = w[t - 15], w2 = w[t - 2]
                            let sigma0 = rotate(w15, 1) ^ rotate(w15, 8) ^ (w15 &>> 7)
                            let sigma1 = rotate(w2, 19) ^ rotate(w2, 61) ^ (w2 &>> 6)
                            w[t] = w[t - 16] &+ sigma0 &+ w[t - 7] &+ sigma1
                        }
                        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5],
                                                        state[6], state[7])
                        for t in 0 ..< 80 {
                            let t1 = h &+ (rotate(e, 14) ^ rotate(e, 18) ^ rotate(e, 41)) &+ ((e & f) ^ (~e & g))
                                &+ k[t] &+ w[t]
                            let t2 = (rotate(a, 28) ^ rotate(a, 34) ^ rotate(a, 39)) &+ ((a & b) ^ (a & c) ^ (b & c))
                            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                        }
                        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
                        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
                    }
                }
            }
        }
    }

    /// ROTR (§3.2): `word` rotated right by `count` bits.
    private func rotate(_ word: UInt64, _ count: UInt64) -> UInt64 {
        word &>> count | word &<< (64 &- count)
    }
}

/// The message of a SHA-2 hash as whole blocks: the bytes after the last whole block wait for more, and the end of
/// the message is padded (§5.1).
struct MessageBlocks {
    /// Bytes per block.
    let blockSize: Int
    /// Bytes of the message's length in bits at the end of the padding.
    let lengthFieldSize: Int
    /// The bytes after the last whole block (fewer than a block).
    private var pending: [UInt8] = []
    /// The message's length in bytes.
    private var length: UInt64 = 0

    init(blockSize: Int, lengthFieldSize: Int) {
        self.blockSize = blockSize
        self.lengthFieldSize = lengthFieldSize
    }

    /// Adds `data` to the message and returns the whole blocks it completes, for the hash to compress.
    mutating func append(_ data: [UInt8]) -> [UInt8] {
        length += UInt64(data.count)
        pending += data
        let whole = pending.count - pending.count % blockSize
        guard whole > 0 else { return [] }
        let blocks = Array(pending[..<whole])
        pending.removeFirst(whole)
        return blocks
    }

    /// The last blocks of the message: the bytes still pending, a 1 bit, zeros, and the length in bits as a
    /// big-endian number of `lengthFieldSize` bytes.
    func paddedTail() -> [UInt8] {
        var tail = pending + [0x80]
        tail += [UInt8](repeating: 0, count: (blockSize - (tail.count + lengthFieldSize) % blockSize) % blockSize)
        tail += [UInt8](repeating: 0, count: lengthFieldSize - 8)
        let bits = length &* 8
        tail += (0 ..< 8).map { UInt8(truncatingIfNeeded: bits &>> (56 - 8 * $0)) }
        return tail
    }
}
