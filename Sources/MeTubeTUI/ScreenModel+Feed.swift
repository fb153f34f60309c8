import MeTubeCore

extension ScreenModel {
    mutating func performInFeed(_ action: Action) -> [Effect] {
        switch action {
        case .moveDown, .moveUp, .pageDown, .pageUp, .moveFirst, .moveLast:
            move(&feedCursor, action, count: rows.count)
            if feedCursor.selection == 0 { newCount = 0 }
        case .toggleWatched:
            return toggleSelected(.watched)
        case .toggleSkipped:
            return toggleSelected(.skipped)
        case .markUnwatched:
            guard let video = selectedVideo else { return [] }
            return markVideo(video.id, as: .unwatched)
        case .open:
            return openSelected()
        case .copyURL:
            guard let video = selectedVideo else { return [] }
            message = StatusMessage(text: "copied \(video.url)", isError: false)
            return [.copy(video.url)]
        case .toggleShorts:
            query.hideShorts.toggle()
            refilter(keepingSelection: true)
            message = StatusMessage(text: query.hideShorts ? "Shorts hidden" : "Shorts shown", isError: false)
        case .cycleFilter:
            query.filter = query.filter.next
            refilter(keepingSelection: true)
        case .search:
            searchInput = ""
            searchOrigin = feedCursor.selection
        case .nextMatch, .previousMatch:
            guard !searchText.isEmpty else {
                message = StatusMessage(text: "no search yet; / starts one", isError: false)
                return []
            }
            jumpToMatch(forward: action == .nextMatch)
        case .channels:
            openChannels()
        case .conflicts:
            rebuildConflicts()
            screen = .conflicts
        case .back:
            if query.channelID != nil { openChannels() }
        case .keepMine, .takeTheirs:
            message = StatusMessage(text: "\(keyMap.keys(for: .conflicts).first?.name ?? "C") shows the conflicts", isError: false)
        case .quit, .help, .syncNow:
            break
        }
        return []
    }

    /// Moves `cursor` in a list of `count` rows for a navigation action.
    mutating func move(_ cursor: inout ListCursor, _ action: Action, count: Int) {
        let page = listHeight
        switch action {
        case .moveDown: cursor.move(by: 1, count: count, visible: page)
        case .moveUp: cursor.move(by: -1, count: count, visible: page)
        case .pageDown: cursor.move(by: page, count: count, visible: page)
        case .pageUp: cursor.move(by: -page, count: count, visible: page)
        case .moveFirst: cursor.select(0, count: count, visible: page)
        case .moveLast: cursor.select(count - 1, count: count, visible: page)
        default: break
        }
    }

    private mutating func toggleSelected(_ status: WatchStatus) -> [Effect] {
        guard let video = selectedVideo else { return [] }
        let current = library.marks[video.id]?.status
        return markVideo(video.id, as: current == status ? .unwatched : status)
    }

    private mutating func openSelected() -> [Effect] {
        guard let video = selectedVideo else { return [] }
        message = StatusMessage(text: "opening \(video.url)", isError: false)
        switch markOnOpen {
        case .never: return [.open(videoID: video.id, url: video.url, markOnSuccess: false)]
        case .onSuccess: return [.open(videoID: video.id, url: video.url, markOnSuccess: true)]
        case .always: return markVideo(video.id, as: .watched) + [.open(videoID: video.id, url: video.url, markOnSuccess: false)]
        }
    }

    /// Recomputes the feed's rows from scratch (a new filter or channel), forgetting sticky rows.
    mutating func rebuildRows() {
        stickyVideoIDs = []
        computeRows()
        feedCursor = ListCursor()
        feedCursor.clamp(count: rows.count, visible: listHeight)
    }

    /// Recomputes the feed's rows, keeping the selected video on the same screen line when
    /// `keepingSelection` and it is still shown.
    mutating func refilter(keepingSelection: Bool) {
        let selectedID = selectedVideo?.id
        let offset = feedCursor.selection - feedCursor.scroll
        let oldSelection = feedCursor.selection
        computeRows()
        if keepingSelection, let selectedID, let index = rows.firstIndex(where: { library.videos[$0].id == selectedID }) {
            feedCursor.select(index, atOffset: offset, count: rows.count, visible: listHeight)
        } else {
            feedCursor.select(oldSelection, atOffset: offset, count: rows.count, visible: listHeight)
        }
        if !searchText.isEmpty { countMatches() }
    }

    private mutating func computeRows() {
        var result: [Int] = []
        result.reserveCapacity(library.videos.count)
        let channelID = query.channelID
        for (index, video) in library.videos.enumerated() {
            if let channelID, video.channelID != channelID { continue }
            if query.hideShorts, video.isShort { continue }
            let mark = library.marks[video.id]
            if !query.filter.admits(FeedQuery.status(of: mark, statusesKnown: statusesKnown)), !stickyVideoIDs.contains(video.id) { continue }
            result.append(index)
        }
        rows = result
    }
}
