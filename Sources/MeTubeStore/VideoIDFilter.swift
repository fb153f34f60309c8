import Foundation

/// A Bloom filter over video ids: says for certain that an id is *not* among a set, or that it may
/// be. `head.json` carries one over every video of the snapshot, so a journal line can be applied
/// to the head alone when its videos are certainly new (see ``LibraryHead``).
struct VideoIDFilter: Equatable {
    /// The bit array, 64 bits a word.
    private(set) var words: [UInt64]
    private static let hashCount = 7
    private static let bitsPerID = 10

    /// An empty filter sized for `count` ids (about 1 % false positives).
    init(capacity count: Int) {
        words = Array(repeating: 0, count: max(1, (count * Self.bitsPerID + 63) / 64))
    }

    /// A filter read back from ``base64``; `nil` when the text is not one.
    init?(base64 text: String) {
        guard let data = Data(base64Encoded: text), !data.isEmpty, data.count % 8 == 0 else { return nil }
        words = data.withUnsafeBytes { raw in (0..<data.count / 8).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) } }
    }

    /// The bits as base64 (little-endian words), for the head file.
    var base64: String {
        var data = Data(capacity: words.count * 8)
        for word in words { withUnsafeBytes(of: word.littleEndian) { data.append(contentsOf: $0) } }
        return data.base64EncodedString()
    }

    mutating func insert(_ id: String) {
        for bit in positions(id) { words[bit >> 6] |= 1 << UInt64(bit & 63) }
    }

    /// Whether `id` may be in the set (`false` means certainly not).
    func mayContain(_ id: String) -> Bool {
        positions(id).allSatisfy { words[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }
    }

    /// The bit positions of `id`: double hashing over two FNV-1a hashes.
    private func positions(_ id: String) -> [Int] {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in id.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 0x9e37_79b9
        }
        second |= 1
        let bits = UInt64(words.count * 64)
        return (0..<Self.hashCount).map { Int((first &+ UInt64($0) &* second) % bits) }
    }
}
