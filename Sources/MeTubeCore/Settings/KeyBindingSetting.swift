/// One line of the config file's `[keys]` section: an action's name and the key names bound to
/// it, as written. The TUI checks the names against its action table.
public struct KeyBindingSetting: Sendable, Equatable {
    /// The action, e.g. `toggle-watched`.
    public var action: String
    /// The key names, e.g. `["j", "Down"]`.
    public var keys: [String]
    /// Where the binding was written, `path:line`, for messages.
    public var location: String

    /// Creates a binding.
    public init(action: String, keys: [String], location: String) {
        self.action = action
        self.keys = keys
        self.location = location
    }
}
