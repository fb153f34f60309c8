import Foundation
import MeTubeCore

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
/// move-down = "j Down C-n"   # several keys: names separated by spaces
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

    /// Reads the TUI's settings from the config file at `url`; a missing file gives the defaults.
    public static func load(from url: URL) throws(TUIError) -> TUIConfig {
        let file: ConfigFile
        do {
            file = try ConfigFile.load(from: url)
        } catch {
            throw .configUnreadable(path: url.path, reason: error.description)
        }
        return try TUIConfig(file: file)
    }

    /// Reads the TUI's settings from a parsed config file.
    public init(file: ConfigFile) throws(TUIError) {
        self.init()
        for (name, value) in (file.sections["keys"] ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let action = Action(rawValue: name) else {
                throw .configInvalid(setting: "keys.\(name)", message: "unknown action; actions are \(Action.allCases.map(\.name).joined(separator: ", "))")
            }
            guard let names = value.string?.split(separator: " ").map(String.init), !names.isEmpty else {
                throw .configInvalid(setting: "keys.\(name)", message: "a binding is a string of key names separated by spaces, e.g. \"j Down\"")
            }
            keyBindings[action] = try names.map { (keyName: String) throws(TUIError) -> Key in
                guard let key = Key(name: keyName) else {
                    throw .configInvalid(setting: "keys.\(name)", message: "unknown key \"\(keyName)\"; use a character, Space, C-x, Up, Down, Left, Right, PgUp, PgDn, Home, End, Enter, Esc, Tab, Backspace or Delete")
                }
                return key
            }
        }
        for (name, value) in (file.sections["tui"] ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "open":
                guard let command = value.string else { throw .configInvalid(setting: "tui.open", message: "takes a \"string\"") }
                openCommand = command.trimmingCharacters(in: .whitespaces).isEmpty ? nil : command
            case "mark-on-open":
                guard let policy = value.string.flatMap(MarkOnOpen.init(rawValue:)) else {
                    throw .configInvalid(setting: "tui.mark-on-open", message: "is one of \(MarkOnOpen.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
                }
                markOnOpen = policy
            case "ascii":
                guard let flag = value.bool else { throw .configInvalid(setting: "tui.ascii", message: "takes true or false") }
                forceASCII = flag
            default:
                throw .configInvalid(setting: "tui.\(name)", message: "unknown setting; [tui] has open, mark-on-open, ascii")
            }
        }
    }
}
