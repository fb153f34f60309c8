/// Where each video of a library's feed-ordered array is, by id: an open-addressing hash table of
/// 32-bit array indices that compares ids against the array itself, so it holds no copy of any id.
/// About 4 bytes per slot (two slots per video) instead of a dictionary's key, value and metadata.
struct VideoIndexTable: Sendable {
    /// Array indices, `-1` for an empty slot; the count is a power of two.
    private var slots: [Int32] = []

    /// An empty table.
    init() {}

    /// The positions of `videos`, whose ids are unique.
    init(_ videos: [Video]) {
        precondition(videos.count < Int(Int32.max) / 2, "too many videos for 32-bit positions")
        var capacity = 8
        while capacity < videos.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for (index, video) in videos.enumerated() {
            var slot = Self.hash(video.id) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
        self.slots = slots
    }

    /// The index in `videos` (the array this table was built from) of the video with `id`.
    func index(of id: String, in videos: [Video]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Self.hash(id) & mask
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            if videos[Int(index)].id == id { return Int(index) }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a over the id's UTF-8 bytes, mixed so that the low bits spread well.
    private static func hash(_ id: String) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash)
    }
}
