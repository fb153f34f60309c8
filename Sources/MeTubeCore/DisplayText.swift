/// Text from outside — titles, channel names, error bodies, ids — made safe to print on a
/// terminal: no C0 or C1 control (ESC, OSC, CR, BEL…), no DEL and no bidi control reaches it, and
/// no line is longer than asked. Every display path (CLI text output and the TUI) goes through it;
/// JSON output does not need it, since the encoder escapes control characters.
public enum DisplayText {
    /// The most characters a title is stored with; longer ones are cut at the boundary.
    public static let titleLimit = 500

    /// `text` as one line of at most `limit` characters: line breaks and tabs become spaces, other
    /// controls are dropped, and a cut is marked with `…`.
    public static func line(_ text: some StringProtocol, limit: Int = 1_000) -> String {
        let cleaned = isSafe(text) ? String(text) : String(String.UnicodeScalarView(text.unicodeScalars.compactMap(replacement)))
        return truncated(cleaned, limit: limit)
    }

    /// `text` cut to `limit` characters, for storage: no marker, nothing else changed.
    public static func capped(_ text: String, limit: Int = titleLimit) -> String {
        text.utf8.count <= limit ? text : String(text.prefix(limit))
    }

    /// Whether `scalar` must never reach a terminal.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029: true
        default: false
        }
    }

    private static func isSafe(_ text: some StringProtocol) -> Bool {
        !text.unicodeScalars.contains(where: isControl)
    }

    private static func replacement(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2028, 0x2029: " "
        default: isControl(scalar) ? nil : scalar
        }
    }

    private static func truncated(_ text: String, limit: Int) -> String {
        guard limit > 0, text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(max(limit - 1, 0))) + "…"
    }
}
