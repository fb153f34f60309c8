/// Where playback of one video stopped, on the hybrid logical clock, and whether the status
/// service holds it. The newest position wins per video; a position never makes a conflict.
public struct PlaybackPosition: Codable, Sendable, Hashable {
    /// The largest position or duration kept: 100 days of seconds. Anything beyond is not a video.
    public static let maxSeconds = 8_640_000.0

    /// The video played.
    public var videoID: String
    /// Seconds from the start, finite, in `0...maxSeconds`.
    public var seconds: Double
    /// The video's length in seconds as the player reported it, when known.
    public var duration: Double?
    /// When the position was saved.
    public var hlc: HybridTimestamp
    /// The device that saved it.
    public var deviceID: String
    /// Whether the mark-sync service holds it: `pending` until a push is acknowledged, then `synced`.
    public var syncState: SyncState

    /// A position with `seconds` clamped into range (a non-finite one becomes 0), a duration out
    /// of range dropped, and the position never past the duration.
    public init(videoID: String, seconds: Double, duration: Double? = nil, hlc: HybridTimestamp, deviceID: String, syncState: SyncState = .pending) {
        let length = duration.flatMap(Self.checked)
        self.videoID = videoID
        self.seconds = seconds.isFinite ? min(max(seconds, 0), length ?? Self.maxSeconds) : 0
        self.duration = length
        self.hlc = hlc
        self.deviceID = deviceID
        self.syncState = syncState
    }

    /// `value` when it is a finite number of seconds in range; `nil` otherwise.
    public static func checked(_ value: Double) -> Double? {
        value.isFinite && value >= 0 && value <= maxSeconds ? value : nil
    }

    /// The share of the video played, in `0...1`, when the duration is known and not zero.
    public var fraction: Double? {
        guard let duration, duration > 0 else { return nil }
        return min(1, seconds / duration)
    }

    /// Whether this position was saved after `other`: by clock reading, ties broken by device id.
    public func isNewer(than other: PlaybackPosition) -> Bool {
        (hlc, deviceID) > (other.hlc, other.deviceID)
    }
}
