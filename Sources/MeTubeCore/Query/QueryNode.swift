/// A parsed query: terms joined by `and`, `or` and `not`.
indirect enum QueryNode: Sendable {
    case term(QueryTerm)
    case not(QueryNode)
    case and([QueryNode])
    case or([QueryNode])

    /// Whether `video` satisfies this node; `and` and `or` stop at the first deciding operand.
    func matches(_ video: Video, in context: inout QueryContext) -> Bool {
        switch self {
        case .term(let term): return term.matches(video, in: &context)
        case .not(let node): return !node.matches(video, in: &context)
        case .and(let nodes):
            for node in nodes where !node.matches(video, in: &context) { return false }
            return true
        case .or(let nodes):
            for node in nodes where node.matches(video, in: &context) { return true }
            return false
        }
    }
}
