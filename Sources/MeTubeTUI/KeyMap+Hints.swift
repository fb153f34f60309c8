extension KeyMap {
    /// A hint such as "? shows the keys": the first key bound to `action` (as the action table and
    /// `[keys]` make it) and `phrase`; `nil` when the action has no key.
    func hint(_ action: Action, _ phrase: String) -> String? {
        keys(for: action).first.map { "\($0.name) \(phrase)" }
    }

    /// `text`, followed by "; " and the hints of the bound actions, if any.
    func message(_ text: String, hints: [(Action, String)]) -> String {
        let shown = hints.compactMap { hint($0.0, $0.1) }
        return shown.isEmpty ? text : "\(text); \(shown.joined(separator: ", "))"
    }
}
