import MeTubeAPI
import MeTubeCore
import MeTubeTransfer

/// The range checks of the sync's own peers (hub, mark-sync service, feed server): sequence numbers,
/// video lengths, clock readings, ids and record names.
extension PeerInput {
    /// The longest video a peer may report, in seconds (a week; YouTube's limit is 12 hours).
    static let maxDurationSeconds = 7 * 24 * 3600
    /// The latest clock reading a peer may send: 9999-12-31T23:59:59.999Z in milliseconds, far
    /// below what the store's reader accepts.
    static let maxMillis: Int64 = 253_402_300_799_999
    /// The earliest date a peer may say a video was queued: 2005-04-23T00:00:00Z, YouTube's first
    /// upload, in milliseconds; an earlier `queuedAt` or `queueHlc` is not a date (it would show
    /// as queued in 1970 and sort first).
    static let earliestQueueMillis: Int64 = 1_114_214_400_000
    /// How far ahead of this device's clock a peer's queue date may run: a day of clock skew.
    static let maxQueueLead: Int64 = 86_400_000

    /// The most bytes a status record name, device id or change tag may have.
    static let maxNameBytes = 128
    /// The most bytes a mark-sync token may have.
    static let maxSyncTokenBytes = 1024

    /// `seq` when it is a usable hub sequence number: 1…`HubAPI.maxAfterSeq`.
    static func seq(_ seq: Int64) -> Int64? {
        (1...HubAPI.maxAfterSeq).contains(seq) ? seq : nil
    }

    /// A video length when it is plausible: 0…``maxDurationSeconds``.
    static func durationSeconds(_ seconds: Int) -> Int? {
        (0...maxDurationSeconds).contains(seconds) ? seconds : nil
    }

    /// Milliseconds since 1970 when they fall between 1970 and the year 9999.
    static func millis(_ millis: Int64) -> Int64? {
        (0...maxMillis).contains(millis) ? millis : nil
    }

    /// Milliseconds since 1970 when they are a plausible date for queueing a video at `now`:
    /// from ``earliestQueueMillis`` to ``maxQueueLead`` after `now`.
    static func queueMillis(_ millis: Int64, now: Int64) -> Int64? {
        (earliestQueueMillis...max(earliestQueueMillis, now.addingReportingOverflow(maxQueueLead).partialValue)).contains(millis) ? millis : nil
    }

    /// Whether `id` is a YouTube video id: 11 characters of `[A-Za-z0-9_-]`.
    static func isVideoID(_ id: String) -> Bool { VideoID.isValid(id) }

    /// Whether `id` is a YouTube channel id: `UC` and 22 characters of `[A-Za-z0-9_-]`.
    static func isChannelID(_ id: String) -> Bool { ChannelID.isValid(id) }

    /// Whether `name` can be a status record name: 1…``maxNameBytes`` bytes of the id alphabet
    /// `[A-Za-z0-9_-]` (lenient about length, as other clients' records may not be YouTube ids,
    /// but never holding control characters or megabytes).
    static func isRecordName(_ name: String) -> Bool {
        (1...maxNameBytes).contains(name.utf8.count) && name.utf8.allSatisfy(ChannelID.isIDByte)
    }
}
