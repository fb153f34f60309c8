import Foundation

/// When opening a video marks it watched.
public enum MarkOnOpen: String, CaseIterable, Sendable {
    /// Opening never marks.
    case never
    /// Marks when the player exits with status 0 (the default).
    case onSuccess = "on-success"
    /// Marks as soon as the player starts.
    case always
}

/// The TUI's settings from the config file: key bindings (`[keys]`) and the `[tui]` section.
///
/// ```toml
/// [tui]
/// open = "mpv {url}"          # {url} is replaced; without it the URL is appended
/// mark-on-open = "on-success" # never | on-success | always
/// ascii = false               # force ASCII badges even in a UTF-8 locale
///
/// [keys]
/// toggle-watched = "x"
/// move-down = ["j", "Down", "C-n"]
/// ```
///
/// Other sections belong to other parts of metube and are left alone.
public struct TUIConfig: Sendable, Equatable {
    /// Keys that replace an action's defaults.
    public var keyBindings: [Action: [Key]]
    /// The command that opens a video; `nil` means `$BROWSER`, else `xdg-open`.
    public var openCommand: String?
    /// When opening marks the video watched.
    public var markOnOpen: MarkOnOpen
    /// Whether to use ASCII badges even when the locale is UTF-8.
    public var forceASCII: Bool

    /// A configuration: the defaults unless told otherwise.
    public init(keyBindings: [Action: [Key]] = [:], openCommand: String? = nil, markOnOpen: MarkOnOpen = .onSuccess, forceASCII: Bool = false) {
        self.keyBindings = keyBindings
        self.openCommand = openCommand
        self.markOnOpen = markOnOpen
        self.forceASCII = forceASCII
    }

    /// The key map these bindings make.
    public var keyMap: KeyMap { KeyMap(overrides: keyBindings) }

    /// Reads the config file at `url`; a file that does not exist gives the defaults.
    public static func load(from url: URL) throws(TUIError) -> TUIConfig {
        guard FileManager.default.fileExists(atPath: url.path) else { return TUIConfig() }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .configUnreadable(path: url.path, reason: error.localizedDescription)
        }
        return try TUIConfig(parsing: text)
    }

    /// Reads the TUI's settings from config-file text.
    public init(parsing text: String) throws(TUIError) {
        self.init()
        let document = try TOMLDocument(parsing: text)
        for entry in document.entries(in: "keys") {
            guard let action = Action(rawValue: entry.key) else {
                throw .configInvalid(line: entry.line, message: "unknown action \"\(entry.key)\"; actions are \(Action.allCases.map(\.name).joined(separator: ", "))")
            }
            let names: [String]
            switch entry.value {
            case .string(let name): names = [name]
            case .strings(let list): names = list
            default: throw .configInvalid(line: entry.line, message: "a key binding is a \"key\" or a list [\"a\", \"b\"]")
            }
            keyBindings[action] = try names.map { (name: String) throws(TUIError) -> Key in
                guard let key = Key(name: name) else {
                    throw .configInvalid(line: entry.line, message: "unknown key \"\(name)\"; use a character, Space, C-x, Up, Down, Left, Right, PgUp, PgDn, Home, End, Enter, Esc, Tab, Backspace or Delete")
                }
                return key
            }
        }
        for entry in document.entries(in: "tui") {
            switch (entry.key, entry.value) {
            case ("open", .string(let command)):
                openCommand = command.trimmingCharacters(in: .whitespaces).isEmpty ? nil : command
            case ("mark-on-open", .string(let name)):
                guard let policy = MarkOnOpen(rawValue: name) else {
                    throw .configInvalid(line: entry.line, message: "mark-on-open is one of \(MarkOnOpen.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
                }
                markOnOpen = policy
            case ("ascii", .boolean(let flag)):
                forceASCII = flag
            case ("open", _), ("mark-on-open", _):
                throw .configInvalid(line: entry.line, message: "\(entry.key) takes a \"string\"")
            case ("ascii", _):
                throw .configInvalid(line: entry.line, message: "ascii takes true or false")
            default:
                throw .configInvalid(line: entry.line, message: "unknown setting \"\(entry.key)\" in [tui]; settings are open, mark-on-open, ascii")
            }
        }
    }
}
