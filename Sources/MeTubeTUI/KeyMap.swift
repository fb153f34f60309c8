/// Which ``Action`` each ``Key`` triggers: the defaults of ``Action/info``, with the config file's
/// bindings laid over them.
public struct KeyMap: Sendable, Equatable {
    private var actions: [Key: Action] = [:]
    private var keys: [Action: [Key]] = [:]

    /// The default bindings, with `overrides` replacing the keys of the actions they name.
    ///
    /// A key given in `overrides` leaves whatever action it had by default.
    public init(overrides: [Action: [Key]] = [:]) {
        for action in Action.allCases {
            keys[action] = overrides[action] ?? action.info.keys.compactMap { Key(name: $0) }
        }
        let overridden = Set(overrides.values.joined())
        for action in Action.allCases {
            let isOverride = overrides[action] != nil
            keys[action] = keys[action]!.filter { isOverride || !overridden.contains($0) }
            for key in keys[action]! where actions[key] == nil || isOverride {
                actions[key] = action
            }
        }
    }

    /// The action `key` triggers, if any.
    public func action(for key: Key) -> Action? { actions[key] }

    /// The keys that trigger `action`, in the order configured.
    public func keys(for action: Action) -> [Key] { keys[action] ?? [] }
}
