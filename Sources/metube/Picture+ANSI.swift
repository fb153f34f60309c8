import MeTubeThumbnails

extension Picture {
    /// The picture as lines of text with SGR colour sequences (24-bit or 256-colour, as drawn),
    /// each line ending with a reset; plain symbols when drawn without colour.
    var ansiText: String {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                let cell = self[column, row]
                switch colors {
                case .direct: line += Self.sgr(38, cell.foreground, direct: true) + Self.sgr(48, cell.background, direct: true)
                case .indexed256: line += Self.sgr(38, cell.foreground, direct: false) + Self.sgr(48, cell.background, direct: false)
                case .none: break
                }
                line.append(cell.character)
            }
            return colors == .none ? line : line + "\u{1B}[0m"
        }.joined(separator: "\n")
    }

    /// The SGR sequence setting colour `value` as foreground (`38`) or background (`48`); the
    /// default colour for a negative value.
    private static func sgr(_ layer: Int, _ value: Int32, direct: Bool) -> String {
        guard value >= 0 else { return "\u{1B}[\(layer + 1)m" }
        if direct { return "\u{1B}[\(layer);2;\((value >> 16) & 0xFF);\((value >> 8) & 0xFF);\(value & 0xFF)m" }
        return "\u{1B}[\(layer);5;\(value)m"
    }
}
