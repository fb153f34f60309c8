/// How durations are written: `12:34`, or `1:02:03` from an hour up.
public enum DurationText {
    /// `seconds` as `m:ss` or `h:mm:ss`.
    public static func format(_ seconds: Int) -> String {
        let total = max(0, seconds)
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
