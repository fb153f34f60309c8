/// Marks by video id, split into shards so that changing one mark copies one small shard, not the
/// whole table, while other holders (the TUI's model, a sync run) keep their copies.
public struct MarkTable: Sendable, Equatable, Sequence {
    private static let shardCount = 256
    private var shards: [[String: Mark]]
    /// How many marks the table holds.
    public private(set) var count = 0

    /// An empty table.
    public init() {
        shards = Array(repeating: [:], count: Self.shardCount)
    }

    /// A table of `marks`; a later mark for the same video replaces an earlier one.
    public init(_ marks: some Sequence<Mark>) {
        self.init()
        for mark in marks { self[mark.videoID] = mark }
    }

    private static func shard(of videoID: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in videoID.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(shardCount))
    }

    /// The mark of `videoID`, if any; setting `nil` removes it.
    public subscript(videoID: String) -> Mark? {
        get { shards[Self.shard(of: videoID)][videoID] }
        set {
            let index = Self.shard(of: videoID)
            if let newValue {
                if shards[index].updateValue(newValue, forKey: videoID) == nil { count += 1 }
            } else if shards[index].removeValue(forKey: videoID) != nil {
                count -= 1
            }
        }
    }

    /// Whether the table is empty.
    public var isEmpty: Bool { count == 0 }

    /// Every mark, in no particular order.
    public var values: [Mark] { shards.flatMap(\.values) }

    public func makeIterator() -> FlattenSequence<LazyMapSequence<[[String: Mark]], Dictionary<String, Mark>.Values>>.Iterator {
        shards.lazy.map(\.values).joined().makeIterator()
    }
}
