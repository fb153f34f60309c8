/// Reads a query's tokens into a ``QueryNode``, by recursive descent: `or` binds loosest, then
/// `and`, then `not` / `!`; parentheses group. Every error names the column it is about.
struct QueryParser {
    /// The deepest nesting of parentheses and `not`s accepted.
    static let maximumDepth = 100

    private let tokens: [QueryToken]
    private var index = 0
    private var depth = 0

    init(tokens: [QueryToken]) {
        self.tokens = tokens
    }

    /// The whole query.
    mutating func parseQuery() throws(MeTubeCoreError) -> QueryNode {
        if current.kind == .end { throw .invalidQuery(column: current.column, reason: "the query is empty; \(QueryTermParser.hint)") }
        let node = try parseOr()
        guard current.kind == .end else {
            throw .invalidQuery(column: current.column, reason: "expected and, or or the end of the query, found \(current.quoted)")
        }
        return node
    }

    private var current: QueryToken { tokens[index] }

    private mutating func advance() -> QueryToken {
        defer { index = min(index + 1, tokens.count - 1) }
        return tokens[index]
    }

    private mutating func parseOr() throws(MeTubeCoreError) -> QueryNode {
        try parseJoined(by: "or", QueryNode.or) { (parser: inout QueryParser) throws(MeTubeCoreError) in try parser.parseAnd() }
    }

    private mutating func parseAnd() throws(MeTubeCoreError) -> QueryNode {
        try parseJoined(by: "and", QueryNode.and) { (parser: inout QueryParser) throws(MeTubeCoreError) in try parser.parseUnary() }
    }

    /// Operands read by `operand`, joined by the word `keyword` into `join` (one operand alone
    /// stays as it is).
    private mutating func parseJoined(
        by keyword: String, _ join: ([QueryNode]) -> QueryNode, operand: (inout QueryParser) throws(MeTubeCoreError) -> QueryNode
    ) throws(MeTubeCoreError) -> QueryNode {
        var operands = [try operand(&self)]
        while current.isWord(keyword) {
            _ = advance()
            operands.append(try operand(&self))
        }
        return operands.count == 1 ? operands[0] : join(operands)
    }

    private mutating func parseUnary() throws(MeTubeCoreError) -> QueryNode {
        if current.isWord("not") || current.kind == .symbol("!") {
            let token = advance()
            return .not(try nested(at: token) { (parser: inout QueryParser) throws(MeTubeCoreError) in try parser.parseUnary() })
        }
        if current.kind == .symbol("(") {
            let open = advance()
            let node = try nested(at: open) { (parser: inout QueryParser) throws(MeTubeCoreError) in try parser.parseOr() }
            guard current.kind == .symbol(")") else {
                throw .invalidQuery(column: current.column, reason: "expected \")\" to close the \"(\" at column \(open.column), found \(current.quoted)")
            }
            _ = advance()
            return node
        }
        var termParser = QueryTermParser(tokens: tokens, index: index)
        let term = try termParser.parseTerm()
        index = termParser.index
        return .term(term)
    }

    /// Runs `body` one level deeper, refusing nesting past ``maximumDepth``.
    private mutating func nested(at token: QueryToken, _ body: (inout QueryParser) throws(MeTubeCoreError) -> QueryNode) throws(MeTubeCoreError) -> QueryNode {
        guard depth < Self.maximumDepth else {
            throw .invalidQuery(column: token.column, reason: "nested more than \(Self.maximumDepth) levels deep")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }
}
