import Foundation

/// All of metube's settings in force: the defaults, overlaid by the config file
/// (`$XDG_CONFIG_HOME/metube/config.toml`), then the environment, then command-line flags.
///
/// One model for every part: the TUI's ``KeyBindingSetting``s and `[tui]` options, the sync
/// engine's `[hub]` and `[sync]` values, the store's lock timeout and the log level are all read
/// here, checked against ``SettingName``'s table, and remembered with their ``SettingOrigin``.
public struct Settings: Sendable, Equatable {
    /// Values by name; a setting without a value here is unset.
    public private(set) var values: [SettingName: SettingValue]
    /// Where each value came from.
    public private(set) var origins: [SettingName: SettingOrigin]
    /// The `[keys]` section.
    public internal(set) var keyBindings: [KeyBindingSetting] = []
    /// The `[views.NAME]` sections, in the order written (the built-in views come before them).
    public internal(set) var views: [SavedView] = []
    /// The `[[rules]]`, in the order written.
    public internal(set) var rules = FeedRules()
    /// One line for each old spelling read, naming the new one.
    public internal(set) var deprecations: [String] = []
    /// The config file read, if one was.
    public internal(set) var file: String?
    /// Where each value not a default was set: `path:line`, `environment NAME` or `--flag`.
    public internal(set) var locations: [SettingName: String] = [:]

    /// The defaults.
    public init() {
        values = [:]
        origins = [:]
        for name in SettingName.allCases {
            if let value = name.defaultValue { values[name] = value }
            origins[name] = .default
        }
    }

    /// Sets `name` to `value` from `origin`.
    mutating func set(_ name: SettingName, to value: SettingValue, from origin: SettingOrigin) {
        values[name] = value
        origins[name] = origin
    }

    /// The text of `name`, if set.
    public func text(_ name: SettingName) -> String? {
        if case .text(let value)? = values[name] { value } else { nil }
    }

    /// The whole number of `name`; every whole-number setting has a default.
    public func whole(_ name: SettingName) -> Int {
        if case .whole(let value)? = values[name] { value } else { 0 }
    }

    /// The flag `name`.
    public func flag(_ name: SettingName) -> Bool {
        if case .flag(let value)? = values[name] { value } else { false }
    }

    /// The strings of the list setting `name`; every list setting has a default.
    public func list(_ name: SettingName) -> [String] {
        if case .list(let values)? = values[name] { values } else { [] }
    }

    /// The number of `name`; every number setting has a default.
    public func number(_ name: SettingName) -> Double {
        if case .number(let value)? = values[name] { value } else { 0 }
    }

    /// The seconds of `name`; `nil` for 0 ("never") or unset.
    public func seconds(_ name: SettingName) -> Double? {
        if case .seconds(let value)? = values[name], value > 0 { value } else { nil }
    }

    /// The seconds of `name` as a duration; `nil` for 0 ("never") or unset. In range by
    /// construction, so the conversion cannot overflow.
    public func duration(_ name: SettingName) -> Duration? {
        seconds(name).map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }
}
