import Foundation
import MeTubeCore

/// Which word on a known video's availability the hub keeps when a feed reads it again.
///
/// A feed knows little: `views="0"` on a recent entry (upcoming) or not (available); it never
/// says live, private or gone, and gives no scheduled start. So what the Data API said
/// (``LiveStreamingState``) or a WebSub `deleted-entry` (gone) stands against a feed's reading,
/// with one exception that keeps any source from hiding a video for good: an entry with views
/// (`views` above 0) is watchable, and an upcoming, private or gone video comes back as
/// available. A gone video also comes back through a WebSub push of the entry (no counts), as
/// YouTube announced it again.
enum FeedAvailabilityPrecedence {
    /// The availability and scheduled start to store when a feed reads `incoming` again and the
    /// hub holds `stored` (the `availability` column, NULL for available) starting at
    /// `storedStart` (seconds since 1970); `checkedByDataAPI` when the Data API gave the stored
    /// state.
    static func resolve(incoming: Video, stored: String?, storedStart: Double?, checkedByDataAPI: Bool) -> (Availability, Date?) {
        let held = Availability(wire: stored)
        let keep = (held, storedStart.map { Date(timeIntervalSince1970: $0) })
        let watched = (incoming.views ?? 0) > 0
        let pushed = incoming.views == nil && incoming.availability == .available
        if watched && (held == .upcoming || held.isGone) || pushed && held == .gone { return (.available, nil) }
        switch held {
        case .gone, .privateVideo, .live, .membersOnly: return keep
        case .available, .upcoming: return checkedByDataAPI ? keep : (incoming.availability, incoming.scheduledStart)
        }
    }
}
