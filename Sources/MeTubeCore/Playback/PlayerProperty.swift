/// One value a tracked player reported, already range-checked: positions and durations are finite
/// seconds in `0...PlaybackPosition.maxSeconds`.
public enum PlayerProperty: Sendable, Equatable {
    /// The current position (`time-pos`).
    case timePosition(Double)
    /// The length of the file (`duration`).
    case duration(Double)
    /// Whether playback is paused (`pause`).
    case paused(Bool)
    /// Whether the end of the file was reached (`eof-reached`, or an `end-file` event with reason `eof`).
    case endOfFile(Bool)
}
