/// What a key does to the text of a one-line prompt (search, a channel's tags, a channel link).
enum PromptKey: Equatable {
    /// Enter: the text is given.
    case submit
    /// Esc: the prompt is left.
    case cancel
    /// The text changed.
    case edited
    /// Nothing happened: another key, Backspace on no text, or a character past the bound.
    case ignored

    /// Applies `key` to `text`: Backspace and Delete remove its last character, a character is
    /// added unless the text would pass `maxBytes` of UTF-8.
    static func apply(_ key: Key, to text: inout String, maxBytes: Int = .max) -> PromptKey {
        switch key {
        case .enter: return .submit
        case .escape: return .cancel
        case .backspace, .delete:
            guard !text.isEmpty else { return .ignored }
            text.removeLast()
            return .edited
        case .character(let character):
            guard text.utf8.count + character.utf8.count <= maxBytes else { return .ignored }
            text.append(character)
            return .edited
        default:
            return .ignored
        }
    }
}
