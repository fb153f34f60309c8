/// Splits a query's text into tokens, each with its column.
struct QueryLexer {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    /// Every token of the text, ending with ``QueryToken/Kind/end``.
    static func tokens(of text: String) throws(MeTubeCoreError) -> [QueryToken] {
        var lexer = QueryLexer(text)
        var tokens: [QueryToken] = []
        repeat {
            tokens.append(try lexer.next())
        } while tokens.last?.kind != .end
        return tokens
    }

    private static let symbols: Set<Character> = ["(", ")", "!", ":", "~", "<", ">", "="]

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == "_" || character == "." || character == "@"
    }

    private mutating func next() throws(MeTubeCoreError) -> QueryToken {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        let column = index + 1
        guard index < characters.count else { return QueryToken(kind: .end, column: column) }
        let character = characters[index]
        if character == "\"" { return QueryToken(kind: .string(try string(from: column)), column: column) }
        if Self.symbols.contains(character) {
            index += 1
            if (character == "<" || character == ">"), index < characters.count, characters[index] == "=" {
                index += 1
                return QueryToken(kind: .symbol("\(character)="), column: column)
            }
            return QueryToken(kind: .symbol(String(character)), column: column)
        }
        guard Self.isWordCharacter(character) else {
            throw .invalidQuery(column: column, reason: "unexpected \"\(DisplayText.line(String(character), limit: 4))\"")
        }
        let start = index
        while index < characters.count, Self.isWordCharacter(characters[index]) { index += 1 }
        return QueryToken(kind: .word(String(characters[start..<index])), column: column)
    }

    /// The string starting at the current `"`, with `\"` and `\\` undone.
    private mutating func string(from column: Int) throws(MeTubeCoreError) -> String {
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\"":
                return text
            case "\\" where index < characters.count && (characters[index] == "\"" || characters[index] == "\\"):
                text.append(characters[index])
                index += 1
            default:
                text.append(character)
            }
        }
        throw .invalidQuery(column: column, reason: "this string has no closing \"")
    }
}
