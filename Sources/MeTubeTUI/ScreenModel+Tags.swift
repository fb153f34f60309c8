import MeTubeCore

extension ScreenModel {
    /// Starts editing the selected channel's tags, the prompt holding the tags it has.
    mutating func startTagEditing() {
        guard !channelList.isEmpty else { return }
        let channel = channelList[channelCursor.selection]
        tagInput = TagInput(channelID: channel.id, channelName: channel.name, text: channel.tags.joined(separator: ", "))
    }

    /// Edits the tag text: Enter saves the tags (each checked, at most ``ChannelTags/maxCount``),
    /// Esc leaves them as they were.
    mutating func handleTagInput(_ key: Key) -> [Effect] {
        guard var input = tagInput else { return [] }
        switch PromptKey.apply(key, to: &input.text) {
        case .submit:
            tagInput = nil
            if let bad = input.tags.first(where: { ChannelTags.checked($0) == nil }) {
                message = FooterMessage(text: "\"\(DisplayText.line(bad, limit: 40))\" is not a tag (1 to \(ChannelTags.maxCharacters) characters); nothing was changed", isError: true)
                return []
            }
            return [.setTags(channelID: input.channelID, tags: ChannelTags.bounded(input.tags))]
        case .cancel:
            tagInput = nil
            return []
        case .ignored:
            return []
        case .edited:
            tagInput = input
            return []
        }
    }
}
