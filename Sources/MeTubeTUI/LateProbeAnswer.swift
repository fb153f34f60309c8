/// The terminal's answer to ``TerminalProbe``'s question when it comes after the probe stopped
/// waiting (a slow link, a loaded machine): curses would read `ESC [ ? 1 ; 2 c` as the keys
/// Escape, `[`, `?`, `1`, `;`, `2`, `c`, opening the help and the channels view. While the answer
/// is owed, ``CursesScreen`` hands what follows an Escape to ``judge(_:)`` and drops the answers.
struct LateProbeAnswer {
    /// Whether the DA1 answer, which ends the answers, is still to come.
    private(set) var isOwed: Bool

    /// What a run of character codes read after one another is.
    enum Verdict: Equatable {
        /// The start of an answer: read on.
        case partial
        /// A whole answer (the kitty graphics one, or DA1's): drop it.
        case answer
        /// Not an answer: keys the user typed.
        case keys
    }

    init(isOwed: Bool) {
        self.isOwed = isOwed
    }

    /// What `codes`, starting with an Escape, are: `ESC _ … ESC \` (the kitty graphics answer) or
    /// `ESC [ ? n ; … c` (DA1's, after which no answer is owed any more).
    mutating func judge(_ codes: [UInt32]) -> Verdict {
        guard isOwed, codes.first == Self.escape else { return .keys }
        guard codes.count > 1 else { return .partial }
        switch codes[1] {
        case UInt32(UInt8(ascii: "_")): return Self.judgeApplicationCommand(codes)
        case UInt32(UInt8(ascii: "[")):
            let verdict = Self.judgeDeviceAttributes(codes)
            if verdict == .answer { isOwed = false }
            return verdict
        default: return .keys
        }
    }

    private static let escape: UInt32 = 0x1B
    /// The longest answer taken for one: real ones are a few dozen characters.
    private static let lengthLimit = 256

    private static func judgeApplicationCommand(_ codes: [UInt32]) -> Verdict {
        guard codes.count <= lengthLimit else { return .keys }
        let payload = codes.dropFirst(2)
        guard let inner = payload.firstIndex(of: escape) else { return .partial }
        guard inner + 1 < codes.endIndex else { return .partial }
        return inner + 2 == codes.endIndex && codes[inner + 1] == UInt32(UInt8(ascii: "\\")) ? .answer : .keys
    }

    private static func judgeDeviceAttributes(_ codes: [UInt32]) -> Verdict {
        guard codes.count <= lengthLimit else { return .keys }
        guard codes.count > 2 else { return .partial }
        guard codes[2] == UInt32(UInt8(ascii: "?")) else { return .keys }
        for (offset, code) in codes.dropFirst(3).enumerated() {
            if code == UInt32(UInt8(ascii: "c")) { return offset + 4 == codes.count ? .answer : .keys }
            guard code == UInt32(UInt8(ascii: ";")) || (UInt32(UInt8(ascii: "0"))...UInt32(UInt8(ascii: "9"))).contains(code) else { return .keys }
        }
        return .partial
    }
}
