/// The lines of the `?` screen, made from the ``Action`` table and the bindings in force.
enum HelpText {
    /// One line: a group heading, or an action's keys and help text.
    struct Line: Equatable {
        var keys: String
        var text: String
        var isHeading: Bool
    }

    static func lines(_ keyMap: KeyMap) -> [Line] {
        var lines: [Line] = []
        for group in ActionGroup.allCases {
            if !lines.isEmpty { lines.append(Line(keys: "", text: "", isHeading: false)) }
            lines.append(Line(keys: "", text: group.rawValue, isHeading: true))
            for action in Action.allCases where action.info.group == group {
                let keys = keyMap.keys(for: action).map(\.name).joined(separator: " ")
                lines.append(Line(keys: keys.isEmpty ? "(unbound)" : keys, text: action.info.help, isHeading: false))
            }
        }
        lines.append(Line(keys: "", text: "", isHeading: false))
        lines.append(Line(keys: "", text: "Progress (right column, with mpv)", isHeading: true))
        lines += [
            Line(keys: "◔ ◑ ◕  (@)", text: "partly watched: under half, half, three quarters, with the share played", isHeading: false),
            Line(keys: "▶ 12:34  (>)", text: "playing now, at this position (⏸ / = while paused)", isHeading: false),
            Line(keys: "⤓ 42%  (d)", text: "downloading for offline viewing; ⤓ left of the mark: a copy is on disk", isHeading: false),
        ]
        return lines
    }
}
