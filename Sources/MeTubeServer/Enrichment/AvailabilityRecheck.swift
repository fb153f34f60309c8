import Foundation
import MeTubeCore

/// When the YouTube Data API is asked again about a video that is not settled: an upcoming one
/// shortly after its scheduled start (and once a day before it, as starts move), a late or live
/// one every so often until it is available or gone, a gone one once more to confirm it.
///
/// Bounded whatever the API answers: never sooner than ``minimumGap`` after a check, and at most
/// ``maxChecks`` checks a video, so a video that flips between live and upcoming on every answer
/// costs a few dozen units over its life, not a loop.
enum AvailabilityRecheck {
    /// The shortest time between two checks of one video.
    static let minimumGap: TimeInterval = 10 * 60
    /// The most re-checks of one video.
    static let maxChecks = 48
    /// How long after its scheduled start an upcoming video is checked.
    static let afterStart: TimeInterval = 2 * 60
    /// The longest wait before an upcoming video is checked (starts are moved).
    static let longestWait: TimeInterval = 86_400
    /// How often a live video, or an upcoming one past its start, is checked at most.
    static let latestInterval: TimeInterval = 2 * 3600
    /// How long a video the API left out waits for the check that confirms it is gone.
    static let goneConfirmation: TimeInterval = 6 * 3600
    /// How long a due re-check is left to the pass that took it (longer than one API call may take).
    static let claim: TimeInterval = 5 * 60

    /// When to check a video in `state` again, after its `checks`-th check at `now`; nil when it
    /// is settled (available, private, members-only, gone twice) or has had its ``maxChecks``.
    static func next(after state: LiveStreamingState, checks: Int, now: Date) -> Date? {
        guard checks < maxChecks else { return nil }
        let wait: TimeInterval
        switch state.availability {
        case .upcoming:
            if let start = state.scheduledStart, start.timeIntervalSince(now) > -afterStart {
                wait = min(start.timeIntervalSince(now) + afterStart, longestWait)
            } else {
                wait = min(latestInterval, minimumGap * Double(checks))
            }
        case .live:
            wait = min(latestInterval, minimumGap * Double(checks))
        case .gone:
            guard checks < 2 else { return nil }
            wait = goneConfirmation
        case .available, .membersOnly, .privateVideo:
            return nil
        }
        return now.addingTimeInterval(max(minimumGap, wait))
    }
}
