/// Marks by video id, split into shards so that changing one mark copies one small shard, not the
/// whole table, while other holders (the TUI's model, a sync run) keep their copies.
///
/// Each shard keeps its marks in one dense array and finds them through an open-addressing table
/// of 32-bit indices that compares ids against the array, so a mark costs its own size plus about
/// 8 bytes, not a dictionary entry's key, value and growth slack.
public struct MarkTable: Sendable, Equatable, Sequence {
    private static let shardCount = 256
    private var shards: [Shard]
    /// How many marks the table holds.
    public private(set) var count = 0

    /// An empty table.
    public init() {
        shards = Array(repeating: Shard(), count: Self.shardCount)
    }

    /// A table of `marks`; a later mark for the same video replaces an earlier one.
    public init(_ marks: some Sequence<Mark>) {
        self.init()
        for mark in marks { self[mark.videoID] = mark }
    }

    /// FNV-1a over the id's UTF-8 bytes: the low byte picks the shard, the rest the slot.
    private static func hash(_ videoID: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in videoID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash ^ (hash >> 31)
    }

    /// The mark of `videoID`, if any; setting `nil` removes it.
    public subscript(videoID: String) -> Mark? {
        get {
            let hash = Self.hash(videoID)
            return shards[Int(hash % UInt64(Self.shardCount))].mark(videoID, hash: hash)
        }
        set {
            let hash = Self.hash(videoID)
            let index = Int(hash % UInt64(Self.shardCount))
            if let newValue {
                if shards[index].insert(newValue, hash: hash) { count += 1 }
            } else if shards[index].remove(videoID, hash: hash) {
                count -= 1
            }
        }
    }

    /// Whether the table is empty.
    public var isEmpty: Bool { count == 0 }

    /// Every mark, in no particular order.
    public var values: [Mark] { shards.flatMap(\.marks) }

    public func makeIterator() -> FlattenSequence<LazyMapSequence<[Shard], [Mark]>>.Iterator {
        shards.lazy.map(\.marks).joined().makeIterator()
    }

    /// Equal when both hold the same marks, whatever order they were made in.
    public static func == (lhs: MarkTable, rhs: MarkTable) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.videoID] == $0 }
    }

    /// One shard: its marks, and where each is by id.
    public struct Shard: Sendable {
        fileprivate private(set) var marks: [Mark] = []
        /// Indices into `marks`, `-1` for an empty slot; the count is a power of two (or zero).
        private var slots: [Int32] = []

        private func slot(for hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> 8) & (slots.count - 1) }

        /// The slot holding `videoID`, or the empty slot where it would go.
        private func find(_ videoID: String, hash: UInt64) -> (slot: Int, index: Int?) {
            var slot = slot(for: hash)
            while true {
                let index = slots[slot]
                if index < 0 { return (slot, nil) }
                if marks[Int(index)].videoID == videoID { return (slot, Int(index)) }
                slot = (slot + 1) & (slots.count - 1)
            }
        }

        fileprivate func mark(_ videoID: String, hash: UInt64) -> Mark? {
            guard !slots.isEmpty else { return nil }
            return find(videoID, hash: hash).index.map { marks[$0] }
        }

        /// Adds or replaces `mark`; returns whether it was new.
        fileprivate mutating func insert(_ mark: Mark, hash: UInt64) -> Bool {
            if (marks.count + 1) * 2 > slots.count { grow() }
            let (slot, index) = find(mark.videoID, hash: hash)
            if let index {
                marks[index] = mark
                return false
            }
            slots[slot] = Int32(marks.count)
            marks.append(mark)
            return true
        }

        /// Removes the mark of `videoID`; returns whether there was one. The last mark moves into
        /// its place, and the probe run after its slot is placed again (no tombstones).
        fileprivate mutating func remove(_ videoID: String, hash: UInt64) -> Bool {
            guard !slots.isEmpty else { return false }
            let (slot, found) = find(videoID, hash: hash)
            guard let index = found else { return false }
            let last = marks.count - 1
            if index != last {
                let moved = find(marks[last].videoID, hash: MarkTable.hash(marks[last].videoID)).slot
                slots[moved] = Int32(index)
                marks.swapAt(index, last)
            }
            marks.removeLast()
            slots[slot] = -1
            var next = (slot + 1) & (slots.count - 1)
            while slots[next] >= 0 {
                let index = slots[next]
                slots[next] = -1
                let hash = MarkTable.hash(marks[Int(index)].videoID)
                slots[find(marks[Int(index)].videoID, hash: hash).slot] = index
                next = (next + 1) & (slots.count - 1)
            }
            return true
        }

        private mutating func grow() {
            var capacity = Swift.max(8, slots.count)
            while capacity < (marks.count + 1) * 2 { capacity <<= 1 }
            slots = Array(repeating: -1, count: capacity)
            for (index, mark) in marks.enumerated() {
                slots[find(mark.videoID, hash: MarkTable.hash(mark.videoID)).slot] = Int32(index)
            }
        }
    }
}
