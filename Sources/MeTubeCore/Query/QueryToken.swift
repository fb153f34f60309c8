/// One token of a query's text, with the column where it starts (1-based, in characters).
struct QueryToken: Sendable, Equatable {
    /// What kind of token this is.
    enum Kind: Sendable, Equatable {
        /// A bare word: a term's name, a keyword, a tag, an id or an amount such as `10m`.
        case word(String)
        /// A double-quoted string, its escapes (`\"`, `\\`) undone.
        case string(String)
        /// One of `( ) ! : ~ < > <= >= =`.
        case symbol(String)
        /// The end of the text.
        case end
    }

    var kind: Kind
    var column: Int

    /// How the token reads in a message.
    var quoted: String {
        switch kind {
        case .word(let text): "\"\(DisplayText.line(text, limit: 40))\""
        case .string(let text): "the string \"\(DisplayText.line(text, limit: 40))\""
        case .symbol(let text): "\"\(text)\""
        case .end: "the end of the query"
        }
    }

    /// The word, if this token is the bare word `word` (case-insensitive).
    func isWord(_ word: String) -> Bool {
        if case .word(let text) = kind { text.lowercased() == word } else { false }
    }
}
