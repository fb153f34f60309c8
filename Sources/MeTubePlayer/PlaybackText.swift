/// Positions and progress as the screen and the command line print them.
public enum PlaybackText {
    /// `1:02:03` or `2:03`; a value out of range prints as `0:00`.
    public static func clock(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds >= 0 ? Int(min(seconds, 8_640_000).rounded(.down)) : 0
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let tail = (minutes < 10 && hours > 0 ? "0" : "") + "\(minutes):" + (secs < 10 ? "0" : "") + "\(secs)"
        return hours > 0 ? "\(hours):\(tail)" : tail
    }
}
