/// A cheap test that rules a title out before a ``BoundedRegex`` is run on it: for a pattern that
/// is plain text (`trailer`, `\bpodcast ep\b`, `(?-i)LIVE`, `trailer|teaser`), a title can only
/// match when it contains one of the alternatives' text, so a title that contains none is no
/// match without asking ICU.
///
/// Only what can be decided exactly is decided: the pattern must be ASCII literals, escaped
/// punctuation and zero-width anchors (`\b`, `^`, `$`) in `|`-separated alternatives, with at
/// most a leading `(?i)` or `(?-i)`; any other pattern has no prefilter. A title is ruled out only
/// when none of its characters can fold to ASCII under case-insensitive matching (``foldsToASCII``
/// lists those, such as the Kelvin sign or `ß`); any other title goes to the regex.
struct RegexPrefilter: Sendable {
    /// Each alternative's text, lowercased unless ``caseSensitive``.
    let alternatives: [[UInt8]]
    /// Whether the pattern turned case-insensitive matching off with `(?-i)`.
    let caseSensitive: Bool

    /// The prefilter of `pattern`, `nil` when the pattern is more than plain text.
    init?(pattern: String) {
        var bytes = Array(pattern.utf8)[...]
        var caseSensitive = false
        if bytes.starts(with: "(?-i)".utf8) {
            caseSensitive = true
            bytes = bytes.dropFirst(5)
        } else if bytes.starts(with: "(?i)".utf8) {
            bytes = bytes.dropFirst(4)
        }
        var alternatives: [[UInt8]] = []
        var current: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "|"):
                guard !current.isEmpty else { return nil }
                alternatives.append(current)
                current = []
            case UInt8(ascii: "^"), UInt8(ascii: "$"):
                continue
            case UInt8(ascii: "\\"):
                guard index < bytes.endIndex else { return nil }
                let escaped = bytes[index]
                index += 1
                if escaped == UInt8(ascii: "b") { continue }
                guard Self.isPunctuation(escaped) else { return nil }
                current.append(escaped)
            default:
                guard byte >= 0x20, byte < 0x7F, !Self.metacharacters.contains(byte) else { return nil }
                current.append(byte)
            }
        }
        guard !current.isEmpty else { return nil }
        alternatives.append(current)
        self.alternatives = caseSensitive ? alternatives : alternatives.map { $0.map(Self.lowercased) }
        self.caseSensitive = caseSensitive
    }

    /// Whether `text` certainly does not match the pattern (`false` when it may).
    func excludes(_ text: String) -> Bool {
        if let decided = text.utf8.withContiguousStorageIfAvailable({ excludes(bytes: $0, text: text) }) { return decided }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { excludes(bytes: $0, text: text) }
    }

    private func excludes(bytes: UnsafeBufferPointer<UInt8>, text: String) -> Bool {
        if !caseSensitive, bytes.contains(where: { $0 >= 0x80 }), text.unicodeScalars.contains(where: Self.foldsToASCII) { return false }
        return !alternatives.contains { Self.contains(bytes, $0, caseSensitive: caseSensitive) }
    }

    /// Whether `haystack` holds `needle` (`needle` lowercased when not `caseSensitive`).
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], caseSensitive: Bool) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) {
            guard (caseSensitive ? haystack[start] : lowercased(haystack[start])) == first else { continue }
            var offset = 1
            while offset < needle.count, (caseSensitive ? haystack[start + offset] : lowercased(haystack[start + offset])) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// ASCII characters with a meaning in an ICU pattern.
    private static let metacharacters = Set("\\^$.|?*+()[]{}".utf8)

    private static func isPunctuation(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) && !(lowercased(byte) >= UInt8(ascii: "a") && lowercased(byte) <= UInt8(ascii: "z"))
    }

    /// Characters outside ASCII whose case folding (or case mappings) contain ASCII letters, so a
    /// case-insensitive pattern's ASCII text may match them: `ß`/`ẞ` (ss), `İ` (i), `ŉ`, `ſ` (s),
    /// `ǰ`, `ẖ`–`ẚ`, the Kelvin sign (k) and the Latin ligatures (ff, fi, fl, ffi, ffl, st).
    /// A test checks the list against Swift's case mappings of every character.
    static func foldsToASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xDF, 0x130, 0x131, 0x149, 0x17F, 0x1F0, 0x1E96...0x1E9A, 0x1E9E, 0x212A, 0x212B, 0xFB00...0xFB06: true
        default: false
        }
    }
}
