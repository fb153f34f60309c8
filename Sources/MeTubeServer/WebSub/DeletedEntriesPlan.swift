import MeTubeCore

/// What a WebSub push's deleted entries change in the hub, decided once for every backend from
/// what it holds: each video the hub keeps under the pushed channel, and not already gone, is
/// marked gone under a fresh `seq` (``FreshSeqs``), so clients that synced it learn it. Videos of
/// other channels (a push may name any id), unknown ones and ones already gone are left alone.
struct DeletedEntriesPlan {
    /// What the hub holds of a video a push says was deleted.
    struct Stored: Equatable {
        /// The channel the hub keeps it under.
        var channelID: String
        /// The `availability` column: nil for available.
        var availability: String?
    }

    /// The videos to mark gone, in video id order, the order they take their seqs in.
    let resequenced: [String]

    /// The plan for the deleted entries `videoIDs` pushed for `channelID` over `stored`, what the
    /// hub holds of those videos it keeps.
    init(_ videoIDs: [String], of channelID: String, stored: [String: Stored]) {
        resequenced = Set(videoIDs).sorted().filter { id in
            guard let held = stored[id] else { return false }
            return held.channelID == channelID && held.availability != Availability.gone.rawValue
        }
    }
}
