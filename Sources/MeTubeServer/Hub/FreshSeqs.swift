/// The hub's one rule for a write to its videos: a new video, or a stored one whose served row
/// changes, gets a fresh `seq` of its own, so clients paging `videos/query` by `seq` receive it
/// (again).
///
/// Fresh means the next the `last_seq` counter hands out: it only grows, so a `seq` is never
/// handed out twice, even for a row deleted or re-sequenced since. Each writer has a plan that
/// decides, from what the hub holds, which videos change and in which order: feed ingestion
/// (``FeedIngestionPlan``), the Data API's durations (``VideoDurationPlan``) and availability
/// (``AvailabilityCheckPlan``), and WebSub deletions (``DeletedEntriesPlan``). A repository reads
/// what the plan needs and writes what it decided; it moves the counter once by the number of
/// changes and numbers them with ``numbered(_:endingAt:)`` (see `FreshSeqs+Backends.swift`). On
/// PostgreSQL the counter's row is locked before the stored rows are read, so, as on SQLite,
/// whose writes run one at a time, every instance decides on the rows it writes over.
enum FreshSeqs {
    /// `changes`, each with its `seq`, in order, once moving the counter by `changes.count` made
    /// it read `last`: the first change takes the lowest.
    static func numbered<Change>(_ changes: [Change], endingAt last: Int64) -> [(seq: Int64, change: Change)] {
        let first = last - Int64(changes.count) + 1
        return changes.enumerated().map { (first + Int64($0.offset), $0.element) }
    }

    /// What a write that needs the `last_seq` counter throws when its row is missing.
    static let missingCounter = ServerError.storage(.failed("the hub_counters row last_seq is missing, so no fresh seq can be handed out"))

    /// `value`, the `last_seq` counter as the store read it; its row missing (nil) is
    /// ``missingCounter``, not a counter at 0, which would hand out again seqs clients have paged past.
    static func counter(_ value: Int64?) throws -> Int64 {
        guard let value else { throw missingCounter }
        return value
    }
}
