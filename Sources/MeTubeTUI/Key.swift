/// One key press, as the screen model sees it.
///
/// Keys have names for the config file and the help screen: a printable character stands for
/// itself (`j`, `G`, `/`), `Space`, `C-f` for Control-F, and `Up`, `Down`, `Left`, `Right`, `PgUp`,
/// `PgDn`, `Home`, `End`, `Enter`, `Esc`, `Tab`, `Backspace`, `Delete` for the rest.
public enum Key: Hashable, Sendable {
    /// A printable character (any script).
    case character(Character)
    /// Control plus a lower-case letter.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end, enter, escape, tab, backspace, delete

    private static let specialNames: [(Key, String)] = [
        (.up, "Up"), (.down, "Down"), (.left, "Left"), (.right, "Right"), (.pageUp, "PgUp"),
        (.pageDown, "PgDn"), (.home, "Home"), (.end, "End"), (.enter, "Enter"), (.escape, "Esc"),
        (.tab, "Tab"), (.backspace, "Backspace"), (.delete, "Delete"), (.character(" "), "Space"),
    ]

    /// The names of the keys that are not a printable character: `Up`, `PgDn`, `Space`…
    public static var specialKeyNames: [String] { specialNames.filter { $0.1 != "Space" }.map(\.1) }

    /// The key a config-file name stands for; `nil` when the name means nothing.
    public init?(name: String) {
        if let special = Self.specialNames.first(where: { $0.1.lowercased() == name.lowercased() }) {
            self = special.0
        } else if name.count == 3, name.hasPrefix("C-"), let letter = name.last, letter.isASCII, letter.isLetter {
            self = .control(Character(letter.lowercased()))
        } else if name.count == 1, let character = name.first, !character.isWhitespace, !(character.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) {
            self = .character(character)
        } else {
            return nil
        }
    }

    /// The name of this key as the config file and the help screen write it.
    public var name: String {
        if let special = Self.specialNames.first(where: { $0.0 == self }) { return special.1 }
        switch self {
        case .character(let character): return String(character)
        case .control(let letter): return "C-\(letter)"
        default: return "?"
        }
    }
}
