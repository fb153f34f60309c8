import Foundation

/// What one Data API answer on whether videos can be watched changes in the hub, decided once
/// for every backend from what it holds: a video whose state or scheduled start changed is stored
/// under a fresh `seq` (``FreshSeqs``), and every video asked about that the hub keeps has its
/// check counted and its next one scheduled (``AvailabilityRecheck``). Videos the hub no longer
/// keeps are left out.
struct AvailabilityCheckPlan {
    /// What the hub holds of a video asked about.
    struct Stored: Equatable {
        /// The `availability` column: nil for available.
        var availability: String?
        /// The `scheduled_start` column, seconds since 1970.
        var scheduledStart: Double?
        /// The checks made so far.
        var checks: Int
    }

    /// A video's new state.
    struct Update: Equatable {
        var videoID: String
        var state: LiveStreamingState
    }

    /// A video's count of checks and its next one.
    struct Recheck: Equatable {
        var videoID: String
        /// When it is asked about again (ms since 1970); nil when it is settled.
        var dueAt: Int64?
        /// The checks made, this one included.
        var checks: Int
    }

    /// The videos whose state or scheduled start changed, in video id order, the order they take
    /// their seqs in.
    let resequenced: [Update]
    /// Every video asked about that the hub keeps, in video id order.
    let rechecks: [Recheck]

    /// The plan for `states` (by video id), read at `now` (ms since 1970), over `stored`, what
    /// the hub holds of those videos it keeps.
    init(_ states: [String: LiveStreamingState], stored: [String: Stored], now: Int64) {
        let date = Date(timeIntervalSince1970: TimeInterval(now) / 1000)
        var resequenced: [Update] = []
        var rechecks: [Recheck] = []
        for (id, state) in states.sorted(by: { $0.key < $1.key }) {
            guard let held = stored[id] else { continue }
            if state.changes(availability: held.availability, scheduledStart: held.scheduledStart) {
                resequenced.append(Update(videoID: id, state: state))
            }
            let checks = held.checks + 1
            let due = AvailabilityRecheck.next(after: state, checks: checks, now: date).map { Int64($0.timeIntervalSince1970 * 1000) }
            rechecks.append(Recheck(videoID: id, dueAt: due, checks: checks))
        }
        self.resequenced = resequenced
        self.rechecks = rechecks
    }
}
