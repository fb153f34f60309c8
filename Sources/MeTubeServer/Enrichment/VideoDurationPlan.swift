/// What the durations a Data API lookup found change in the hub, decided once for every backend
/// from the durations it holds: a video whose duration differs from the stored one (none stored
/// counts as different) is stored with it under a fresh `seq` (``FreshSeqs``), so clients receive
/// it again; videos the hub no longer holds are left out.
struct VideoDurationPlan {
    /// A video's new duration.
    struct Update: Equatable {
        var videoID: String
        var seconds: Int
    }

    /// The videos whose duration changed, in video id order, the order they take their seqs in.
    let resequenced: [Update]

    /// The plan for `durations` (by video id) over `stored`, the `duration_seconds` the hub holds
    /// of each of those videos it keeps (nil: unknown).
    init(_ durations: [String: Int], stored: [String: Int?]) {
        resequenced = durations.sorted { $0.key < $1.key }.compactMap { id, seconds in
            guard let held = stored[id], held != seconds else { return nil }
            return Update(videoID: id, seconds: seconds)
        }
    }
}
