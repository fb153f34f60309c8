/// Whether one video is in the watch-later queue, on the hybrid logical clock, and whether the
/// mark-sync service holds it. Taking a video out keeps the entry (without ``queuedAt``) so the
/// removal travels too; the newest entry wins per video, and an entry never makes a conflict.
public struct QueueEntry: Codable, Sendable, Hashable {
    /// The latest `queuedAt` kept: 9999-12-31T23:59:59.999Z in milliseconds (what the store
    /// writes and reads back; a peer's later value is not a date).
    public static let maxMillis: Int64 = 253_402_300_799_999

    /// The video queued or taken out.
    public var videoID: String
    /// When the video was queued, in milliseconds since 1970 (the queue's order); `nil` when it
    /// was taken out.
    public var queuedAt: Int64?
    /// When the entry was written.
    public var hlc: HybridTimestamp
    /// The device that wrote it.
    public var deviceID: String
    /// Whether the mark-sync service holds it: `pending` until a push is acknowledged, then `synced`.
    public var syncState: SyncState

    /// Creates an entry; a `queuedAt` out of range is clamped into `0...maxMillis`.
    public init(videoID: String, queuedAt: Int64?, hlc: HybridTimestamp, deviceID: String, syncState: SyncState = .pending) {
        self.videoID = videoID
        self.queuedAt = queuedAt.map { min(max($0, 0), Self.maxMillis) }
        self.hlc = hlc
        self.deviceID = deviceID
        self.syncState = syncState
    }

    /// Whether the video is in the queue.
    public var isQueued: Bool { queuedAt != nil }

    /// `millis` when it is a usable `queuedAt`: between 1970 and the year 9999.
    public static func checked(_ millis: Int64) -> Int64? {
        (0...maxMillis).contains(millis) ? millis : nil
    }

    /// Whether this entry was written after `other`: by clock reading, ties broken by device id.
    public func isNewer(than other: QueueEntry) -> Bool {
        (hlc, deviceID) > (other.hlc, other.deviceID)
    }

    /// Whether the queue's order puts this entry before `other`: earlier `queuedAt` first, then
    /// (for videos queued within one millisecond) the earlier clock reading, device and video id.
    public func precedes(_ other: QueueEntry) -> Bool {
        (queuedAt ?? 0, hlc, deviceID, videoID) < (other.queuedAt ?? 0, other.hlc, other.deviceID, other.videoID)
    }
}
