import Foundation
import MeTubeCore
import MeTubePlayer

/// When opening a video marks it watched.
public enum MarkOnOpen: String, CaseIterable, Sendable {
    /// Opening never marks.
    case never
    /// Marks when the player exits with status 0 (the default).
    case onSuccess = "on-success"
    /// Marks as soon as the player starts.
    case always
}

/// The TUI's settings, built from ``Settings``: key bindings (`[keys]`) and the `[tui]` section.
///
/// ```toml
/// [tui]
/// open = "mpv {url}"          # {url} is replaced; without it the URL is appended
/// mark-on-open = "on-success" # never | on-success | always
/// ascii = false               # force ASCII badges even in a UTF-8 locale
/// thumbnails = "auto"         # auto | symbols | kitty | sixel | off
/// thumbnail-cache = 100       # MiB of thumbnails kept in $XDG_CACHE_HOME/metube/thumbnails
///
/// [keys]
/// toggle-watched = "x"
/// move-down = "j Down C-n"   # several keys: names separated by spaces (or an array)
/// ```
public struct TUIConfig: Sendable, Equatable {
    /// Keys that replace an action's defaults.
    public var keyBindings: [Action: [Key]]
    /// The command that opens a video; `nil` means `$BROWSER`, else `xdg-open`.
    public var openCommand: String?
    /// When opening marks the video watched.
    public var markOnOpen: MarkOnOpen
    /// Whether to use ASCII badges even when the locale is UTF-8.
    public var forceASCII: Bool
    /// The tracked player (mpv), `nil` when videos go to the open command untracked.
    public var player: PlayerSettings?
    /// How the details pane draws thumbnails.
    public var thumbnails: ThumbnailMode = .auto
    /// The most bytes the thumbnail cache keeps.
    public var thumbnailCacheBytes = 100 << 20
    /// The views `v` and `1`–`9` pick from: the built-in ones, then the config file's `[views.NAME]`.
    public var views = SavedView.builtIn
    /// The `[[rules]]`; their `hide` rules keep videos out of every view but `all`.
    public var rules = FeedRules()

    /// A configuration: the defaults unless told otherwise.
    public init(
        keyBindings: [Action: [Key]] = [:], openCommand: String? = nil, markOnOpen: MarkOnOpen = .onSuccess, forceASCII: Bool = false,
        player: PlayerSettings? = nil
    ) {
        self.keyBindings = keyBindings
        self.openCommand = openCommand
        self.markOnOpen = markOnOpen
        self.forceASCII = forceASCII
        self.player = player
    }

    /// The key map these bindings make.
    public var keyMap: KeyMap { KeyMap(overrides: keyBindings) }

    /// The TUI's part of `settings`. A `[keys]` line naming an unknown action or key, or a key
    /// that another line binds too, is an error naming the line.
    public init(settings: Settings) throws(SettingsError) {
        self.init(
            openCommand: settings.text(.open).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 },
            markOnOpen: settings.text(.markOnOpen).flatMap(MarkOnOpen.init(rawValue:)) ?? .onSuccess,
            forceASCII: settings.flag(.ascii)
        )
        thumbnails = settings.text(.thumbnails).flatMap(ThumbnailMode.init(rawValue:)) ?? .auto
        thumbnailCacheBytes = settings.whole(.thumbnailCache) << 20
        views = settings.allViews
        rules = settings.rules
        let player = PlayerSettings(settings: settings)
        self.player = player.tracksMPV ? player : nil
        var boundBy: [Key: String] = [:]
        for binding in settings.keyBindings {
            let setting = "[keys] \(binding.action)"
            guard let action = Action(rawValue: binding.action) else {
                throw SettingsError(location: binding.location, setting: setting,
                                    message: "unknown action; \(NearestName.hint(for: binding.action, among: Action.allCases.map(\.name)))")
            }
            var keys: [Key] = []
            for name in binding.keys {
                guard let key = Key(name: name) else {
                    let hint = NearestName.suggestion(for: name, among: Key.specialKeyNames).map { "did you mean \($0)? " } ?? ""
                    throw SettingsError(location: binding.location, setting: setting,
                                        message: "unknown key \"\(name)\"; \(hint)use a character, Space, C-x, \(Key.specialKeyNames.joined(separator: ", "))")
                }
                if let other = boundBy[key], other != binding.action {
                    throw SettingsError(location: binding.location, setting: setting, message: "\(key.name) is bound to \(other) too; give each key one action")
                }
                boundBy[key] = binding.action
                keys.append(key)
            }
            keyBindings[action] = keys
        }
    }
}
