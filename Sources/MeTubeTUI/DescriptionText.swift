import MeTubeCore

/// A description made fit for the pane: bounded (the first ``characterLimit`` characters), every
/// line through ``DisplayText``, wrapped at word boundaries to a width.
enum DescriptionText {
    /// The most characters of a description shown; the rest is cut with a note.
    static let characterLimit = 20_000

    /// The first `count` lines of `text` wrapped to `width` columns, from line `first`.
    static func lines(_ text: String, width: Int, first: Int, count: Int) -> [String] {
        guard width > 0, count > 0 else { return [] }
        let bounded = text.count > characterLimit ? text.prefix(characterLimit) + "\n[…]" : Substring(text)
        var lines: [String] = []
        let wanted = first + count
        for paragraph in bounded.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(contentsOf: wrap(DisplayText.line(paragraph, limit: characterLimit), width: width))
            if lines.count >= wanted { break }
        }
        return Array(lines.dropFirst(first).prefix(count))
    }

    /// `line` broken into lines of at most `width` columns, at spaces where it can be.
    static func wrap(_ line: String, width: Int) -> [String] {
        guard TextWidth.of(line) > width else { return [line] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = TextWidth.of(word)
            if currentWidth > 0, currentWidth + 1 + wordWidth > width {
                lines.append(current)
                current = ""
                currentWidth = 0
            }
            if currentWidth > 0 {
                current.append(" ")
                currentWidth += 1
            }
            for character in word {
                let columns = TextWidth.of(character)
                if currentWidth + columns > width {
                    lines.append(current)
                    current = ""
                    currentWidth = 0
                }
                current.append(character)
                currentWidth += columns
            }
        }
        lines.append(current)
        return lines
    }
}
