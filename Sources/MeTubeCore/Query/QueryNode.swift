/// A parsed query: terms joined by `and`, `or` and `not`.
indirect enum QueryNode: Sendable {
    case term(QueryTerm)
    case not(QueryNode)
    case and([QueryNode])
    case or([QueryNode])
    /// The channel is one of these ids: `channel:UC… or channel:UC… or …` folded by
    /// ``folded``, one set lookup instead of one comparison (and one retain of the operand) each.
    case channelIn(Set<String>)

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
        case .channelIn(let channelIDs): return channelIDs.contains(video.channelID)
        }
    }

    /// This node with every `or` of two or more `channel:UC…` operands folded into one
    /// ``channelIn(_:)``; it decides every video as before (`QueryFoldingTests` compares them).
    var folded: QueryNode {
        switch self {
        case .term, .channelIn: return self
        case .not(let node): return .not(node.folded)
        case .and(let nodes): return .and(nodes.map(\.folded))
        case .or(let nodes):
            let folded = nodes.map(\.folded)
            var channelIDs: Set<String> = []
            var others: [QueryNode] = []
            for node in folded {
                switch node {
                case .term(.channelID(let id)): channelIDs.insert(id)
                case .channelIn(let ids): channelIDs.formUnion(ids)
                default: others.append(node)
                }
            }
            guard channelIDs.count > 1 else { return .or(folded) }
            let set = QueryNode.channelIn(channelIDs)
            return others.isEmpty ? set : .or([set] + others)
        }
    }
}
