import Foundation

/// Reads one term of a query (`watched`, `tag:music`, `title~"…"`, `duration>10m`, …) from its
/// tokens.
struct QueryTermParser {
    private let tokens: [QueryToken]
    /// The token after the last one read.
    private(set) var index: Int

    init(tokens: [QueryToken], index: Int) {
        self.tokens = tokens
        self.index = index
    }

    /// The terms that stand alone, by name.
    static let flags: [String: QueryTerm] = [
        "unwatched": .unwatched, "watched": .watched, "skipped": .skipped, "in-progress": .inProgress,
        "pending": .pending, "conflict": .conflict, "short": .short,
    ]

    /// Every term's name, for messages.
    static let names = ["unwatched", "watched", "skipped", "in-progress", "pending", "conflict", "short", "tag", "channel", "title", "duration", "age"]

    /// What a query is made of, for messages.
    static let hint = "terms are \(names.joined(separator: ", ")), joined by and, or, not and parentheses"

    /// The longest amount a `duration` or `age` term takes: ten years.
    static let maximumSeconds = 10 * 366 * 86_400

    private static let unitSeconds: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    private mutating func advance() -> QueryToken {
        defer { index = min(index + 1, tokens.count - 1) }
        return tokens[index]
    }

    mutating func parseTerm() throws(MeTubeCoreError) -> QueryTerm {
        let token = advance()
        guard case .word(let word) = token.kind else {
            throw .invalidQuery(column: token.column, reason: "expected a term, found \(token.quoted); \(Self.hint)")
        }
        let name = word.lowercased()
        if let flag = Self.flags[name] { return flag }
        switch name {
        case "tag":
            let (value, column) = try operand(after: ":", of: "tag", example: "tag:music")
            guard !value.isEmpty else { throw .invalidQuery(column: column, reason: "tag: needs a tag name") }
            return .tag(value.lowercased())
        case "channel":
            let (value, column) = try operand(after: ":", of: "channel", example: "channel:UC… or channel:\"name\"")
            guard !value.isEmpty else { throw .invalidQuery(column: column, reason: "channel: needs a channel id or name") }
            return ChannelID.isValid(value) ? .channelID(value) : .channelName(value.lowercased())
        case "title":
            return try titleTerm()
        case "duration", "age":
            let (comparison, seconds) = try amount(of: name)
            return name == "duration" ? .duration(comparison, seconds: seconds) : .age(comparison, seconds: seconds)
        default:
            let suggestion = NearestName.suggestion(for: name, among: Self.names).map { "did you mean \($0)? " } ?? ""
            throw .invalidQuery(column: token.column, reason: "unknown term \(token.quoted); \(suggestion)\(Self.hint)")
        }
    }

    /// The word or string after `symbol`, and its column.
    private mutating func operand(after symbol: String, of name: String, example: String) throws(MeTubeCoreError) -> (String, Int) {
        let separator = advance()
        guard separator.kind == .symbol(symbol) else {
            throw .invalidQuery(column: separator.column, reason: "\(name) takes \"\(symbol)\" and a value, e.g. \(example)")
        }
        let value = advance()
        switch value.kind {
        case .word(let text), .string(let text): return (text, value.column)
        default: throw .invalidQuery(column: value.column, reason: "expected a value after \(name)\(symbol), e.g. \(example), found \(value.quoted)")
        }
    }

    private mutating func titleTerm() throws(MeTubeCoreError) -> QueryTerm {
        let tilde = advance()
        guard tilde.kind == .symbol("~") else {
            throw .invalidQuery(column: tilde.column, reason: "title takes ~ and a quoted regular expression, e.g. title~\"trailer\"")
        }
        let value = advance()
        guard case .string(let pattern) = value.kind else {
            throw .invalidQuery(column: value.column, reason: "expected a quoted regular expression after title~, e.g. title~\"trailer\", found \(value.quoted)")
        }
        guard pattern.count <= BoundedRegex.maximumPatternLength else {
            throw .invalidQuery(column: value.column, reason: "the regular expression is longer than \(BoundedRegex.maximumPatternLength) characters")
        }
        guard let regex = BoundedRegex(pattern) else {
            throw .invalidQuery(column: value.column, reason: "\"\(DisplayText.line(pattern, limit: 60))\" is not a valid regular expression")
        }
        return .title(regex)
    }

    /// The comparison and seconds of a `duration` or `age` term, e.g. `>10m`.
    private mutating func amount(of name: String) throws(MeTubeCoreError) -> (QueryComparison, Int) {
        let example = name == "duration" ? "duration>10m" : "age<7d"
        let symbol = advance()
        guard case .symbol(let text) = symbol.kind, let comparison = QueryComparison(rawValue: text) else {
            throw .invalidQuery(column: symbol.column, reason: "\(name) takes <, <=, >, >= or = and an amount, e.g. \(example)")
        }
        let value = advance()
        guard case .word(let word) = value.kind, let seconds = Self.seconds(word) else {
            throw .invalidQuery(column: value.column, reason: "expected an amount such as 90s, 10m, 2h, 7d or 1w after \(name)\(text), found \(value.quoted)")
        }
        guard seconds <= Self.maximumSeconds else {
            throw .invalidQuery(column: value.column, reason: "\(word) is more than ten years")
        }
        return (comparison, seconds)
    }

    /// The seconds of `10m`, `90s`, `2h`, `7d` or `1w`; a bare number is seconds.
    static func seconds(_ word: String) -> Int? {
        var digits = Substring(word)
        var unit = 1
        if let last = word.last, let seconds = unitSeconds[Character(last.lowercased())] {
            unit = seconds
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits) else { return nil }
        return number * unit
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
