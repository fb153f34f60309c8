import MeTubeCore

extension ScreenModel {
    /// Where the details pane is drawn, `nil` when it is not shown (closed, or not the feed).
    public var detailsLayout: DetailsLayout? {
        guard details.isOpen, screen == .feed, size.isUsable else { return nil }
        return DetailsLayout.of(size, pictures: details.showsPictures)
    }

    /// Lines of the selected video's description scrolled past.
    var detailsScroll: Int { details.scrollVideoID == selectedVideo?.id ? details.scroll : 0 }

    /// The description loaded for the selected video: `nil` while it is not loaded.
    var selectedDescription: LoadedDescription? {
        guard let loaded = details.description, loaded.videoID == selectedVideo?.id else { return nil }
        return loaded
    }

    mutating func performDetails(_ action: Action) -> [Effect] {
        switch action {
        case .toggleDetails:
            details.isOpen.toggle()
            feedCursor.clamp(count: rows.count, visible: listHeight)
        case .scrollDetailsDown, .scrollDetailsUp:
            guard detailsLayout != nil, let video = selectedVideo else {
                message = FooterMessage(text: keyMap.message("the details pane is closed", hints: [(.toggleDetails, "opens it")]), isError: false)
                return []
            }
            let start = detailsScroll
            details.scrollVideoID = video.id
            details.scroll = action == .scrollDetailsDown ? min(start + 1, DescriptionText.characterLimit) : max(start - 1, 0)
        default:
            break
        }
        return []
    }

    mutating func applyDetails(_ event: DetailsEvent) {
        switch event {
        case .description(let videoID, let text):
            details.description = LoadedDescription(videoID: videoID, text: text)
        case .picture(let picture):
            details.picture = picture
        case .fetched(let videoID, let failure):
            guard videoID == selectedVideo?.id else { return }
            if let failure, var picture = details.picture, picture.videoID == videoID, picture.state == .waiting {
                picture.state = .unavailable(failure)
                details.picture = picture
            } else if failure == nil {
                details.pictureGeneration += 1
            }
        }
    }
}
