import MeTubeCore
import MeTubeFeeds

extension ScreenRenderer {
    /// The message line while a channel is being followed (`a`): the link typed so far, its end in
    /// view, or the link being resolved.
    func drawFollowPrompt(_ input: ChannelLinkInput, into grid: inout CellGrid, row: Int) {
        let ellipsis = model.unicode ? "…" : "..."
        if let lookup = input.resolving {
            field("follow \(lookup.link): resolving\(ellipsis) (Esc cancels)", into: &grid, row: row, column: 0, width: grid.width, style: .accent)
            return
        }
        let label = "follow (link, @handle or id): "
        let typed = Formatting.tail(DisplayText.line(input.text, limit: ChannelReference.maximumLength), width: grid.width - TextWidth.of(label), unicode: model.unicode)
        field(label + typed, into: &grid, row: row, column: 0, width: grid.width, style: .accent)
    }
}
