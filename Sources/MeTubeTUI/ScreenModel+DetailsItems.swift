import MeTubeCore

extension ScreenModel {
    /// The chapters then links of the selected video's description, as the pane lists them;
    /// empty while the description is not loaded.
    var detailsItems: [DetailsItem] { selectedDescription.map { DetailsItem.items(of: $0.outline) } ?? [] }

    /// The index into ``detailsItems`` of the selected entry: the first for another video.
    var detailsItemIndex: Int { details.itemVideoID == selectedVideo?.id ? details.selectedItem : 0 }

    /// `]` and `[` select a chapter or link in the pane; `P` plays from the chapter or copies the
    /// link.
    mutating func performDetailsItem(_ action: Action) -> [Effect] {
        guard detailsLayout != nil, let video = selectedVideo else {
            message = FooterMessage(text: keyMap.message("the details pane is closed", hints: [(.toggleDetails, "opens it")]), isError: false)
            return []
        }
        let items = detailsItems
        guard !items.isEmpty else {
            message = FooterMessage(text: "no chapters or links in this description", isError: false)
            return []
        }
        let index = min(detailsItemIndex, items.count - 1)
        switch action {
        case .nextDetailsItem, .previousDetailsItem:
            details.itemVideoID = video.id
            details.selectedItem = action == .nextDetailsItem ? min(index + 1, items.count - 1) : max(index - 1, 0)
            return []
        default:
            switch items[index] {
            case .chapter(let chapter): return play(video, from: chapter)
            case .link(let link):
                message = FooterMessage(text: "copied \(DisplayText.line(link, limit: 200))", isError: false)
                return [.copy(link)]
            }
        }
    }

    /// Plays `video` from `chapter`'s start: in the tracked mpv (`--start`) when one is set up,
    /// else by opening its address at that time (`&t=754s`).
    private mutating func play(_ video: Video, from chapter: DescriptionOutline.Chapter) -> [Effect] {
        guard video.availability.isPlayable else {
            message = FooterMessage(text: Self.notPlayableText(video, now: now, timeZone: timeZone), isError: false)
            return []
        }
        if player != nil {
            guard playing[video.id] == nil else {
                message = FooterMessage(text: "\(video.id) is already playing; quit it to start at a chapter", isError: false)
                return []
            }
            return startPlaying(video.id, at: Double(chapter.start))
        }
        let url = "\(video.url)&t=\(chapter.start)s"
        message = FooterMessage(text: "opening \(url)", isError: false)
        return [.open(videoID: video.id, url: url, markOnSuccess: false)]
    }
}
