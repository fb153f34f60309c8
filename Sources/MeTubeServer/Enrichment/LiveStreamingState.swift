import Foundation
import MeTubeCore
import MeTubeFeeds

/// Whether one video can be watched, as the YouTube Data API's `videos.list` says:
/// `snippet.liveBroadcastContent`, `liveStreamingDetails` (`scheduledStartTime`, `actualStartTime`,
/// `actualEndTime`) and `status` (`privacyStatus`, `uploadStatus`). A video the answer leaves out
/// is ``gone``.
///
/// Every field may be missing or wrong: a live video without `liveStreamingDetails` is still
/// live, and a scheduled start outside ``ScheduledStart/plausible(_:now:)`` (1970, 9999) is
/// treated as unknown rather than hiding the video for decades.
struct LiveStreamingState: Sendable, Equatable {
    /// The state read.
    var availability: Availability
    /// When an upcoming video is scheduled to start, when the answer gave a believable time.
    var scheduledStart: Date?

    /// A video the answer left out: deleted, or never there.
    static let gone = LiveStreamingState(availability: .gone, scheduledStart: nil)

    init(availability: Availability, scheduledStart: Date? = nil) {
        self.availability = availability
        self.scheduledStart = availability == .upcoming ? scheduledStart : nil
    }

    /// The state the fields describe at `now`; nil when they describe nothing (an item without
    /// `snippet`, `status` or `liveStreamingDetails`), and then the stored state is kept.
    init?(liveBroadcastContent: String?, scheduledStartTime: String?, actualStartTime: String?, actualEndTime: String?,
          privacyStatus: String?, uploadStatus: String?, now: Date) {
        let scheduled = ScheduledStart.plausible(scheduledStartTime.flatMap(ISO8601Timestamp.parse), now: now)
        let started = actualStartTime.flatMap(ISO8601Timestamp.parse) != nil
        let ended = actualEndTime.flatMap(ISO8601Timestamp.parse) != nil
        if privacyStatus == "private" {
            self.init(availability: .privateVideo)
        } else if let uploadStatus, ["deleted", "rejected", "failed"].contains(uploadStatus) {
            self.init(availability: .gone)
        } else {
            switch liveBroadcastContent {
            case "upcoming": self.init(availability: .upcoming, scheduledStart: scheduled)
            case "live": self.init(availability: .live)
            case "none": self.init(availability: .available)
            default:
                if ended {
                    self.init(availability: .available)
                } else if started {
                    self.init(availability: .live)
                } else if scheduledStartTime != nil {
                    self.init(availability: .upcoming, scheduledStart: scheduled)
                } else if privacyStatus != nil || uploadStatus != nil {
                    self.init(availability: .available)
                } else {
                    return nil
                }
            }
        }
    }
}

extension LiveStreamingState {
    /// The `availability` column's value: NULL (nil) for available.
    var storedAvailability: String? { availability == .available ? nil : availability.rawValue }
    /// The `scheduled_start` column's value: whole seconds since 1970, as clients keep it.
    var storedScheduledStart: Double? { scheduledStart.map { $0.timeIntervalSince1970.rounded(.down) } }

    /// Whether storing this state changes a row holding `availability` and `scheduledStart`.
    func changes(availability: String?, scheduledStart: Double?) -> Bool {
        availability != storedAvailability || scheduledStart != storedScheduledStart
    }
}
