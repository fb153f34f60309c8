import MeTubeCore

extension ScreenModel {
    mutating func performInFeed(_ action: Action) -> [Effect] {
        switch action {
        case .moveDown, .moveUp, .pageDown, .pageUp, .moveFirst, .moveLast:
            feedCursor.navigate(action, count: rows.count, visible: listHeight)
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
            stickyVideoIDs = []
            refilter(keeping: selectedVideo?.id)
            message = StatusMessage(text: query.hideShorts ? "Shorts hidden" : "Shorts shown", isError: false)
        case .cycleFilter:
            query.filter = query.filter.next
            stickyVideoIDs = []
            refilter(keeping: selectedVideo?.id)
        case .search:
            searchInput = ""
            searchOrigin = feedCursor.selection
        case .nextMatch, .previousMatch:
            guard !searchText.isEmpty else {
                message = StatusMessage(text: keyMap.message("no search yet", hints: [(.search, "starts one")]), isError: false)
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
            message = StatusMessage(text: keyMap.hint(.conflicts, "shows the conflicts") ?? "only in the conflicts view", isError: false)
        case .retryFailing, .editTags:
            message = StatusMessage(text: keyMap.hint(.channels, "shows the channels and their fetch results") ?? "only in the channels view", isError: false)
        case .quit, .help, .syncNow, .fullResync, .toggleDetails, .scrollDetailsDown, .scrollDetailsUp:
            break
        }
        return []
    }

    private mutating func toggleSelected(_ status: WatchStatus) -> [Effect] {
        guard let video = selectedVideo else { return [] }
        let current = library.marks[video.id]?.status
        return markVideo(video.id, as: current == status ? .unwatched : status)
    }

    private mutating func openSelected() -> [Effect] {
        guard let video = selectedVideo else { return [] }
        if let player { return playTracked(video, player) }
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
        if isCountingMatches { countMatches() }
    }

    /// Recomputes the feed's rows, keeping the video `selectedID` selected on the same screen line
    /// when it is still shown (callers take the id before they change the library or the query).
    mutating func refilter(keeping selectedID: String?) {
        let offset = feedCursor.selection - feedCursor.scroll
        let oldSelection = feedCursor.selection
        let oldIndex = rows.isEmpty ? nil : rows[oldSelection]
        computeRows()
        var target = oldSelection
        if let selectedID {
            let index = oldIndex.flatMap { $0 < library.videos.count && library.videos[$0].id == selectedID ? $0 : nil }
                ?? library.videos.firstIndex { $0.id == selectedID }
            if let index, let position = Self.position(of: index, in: rows) { target = position }
        }
        feedCursor.select(target, atOffset: offset, count: rows.count, visible: listHeight)
        if !searchText.isEmpty { countMatches() }
    }

    /// Where library index `index` is in the ascending `rows`, by binary search.
    private static func position(of index: Int, in rows: [Int]) -> Int? {
        var low = 0
        var high = rows.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if rows[middle] < index { low = middle + 1 } else if rows[middle] > index { high = middle - 1 } else { return middle }
        }
        return nil
    }

    private mutating func computeRows() {
        var result: [Int] = []
        result.reserveCapacity(library.videos.count)
        let channelID = query.channelID
        let filter = query.filter
        let hideShorts = query.hideShorts
        let library = library
        library.videos.withUnsafeBufferPointer { videos in
            statuses.withUnsafeBufferPointer { statuses in
                for index in 0..<videos.count {
                    let hasProgress = filter == .inProgress && FeedFilter.hasProgress(videos[index].id, in: library)
                    if !filter.admits(statuses[index], hasProgress: hasProgress), stickyVideoIDs.isEmpty || !stickyVideoIDs.contains(videos[index].id) { continue }
                    if hideShorts, videos[index].isShort { continue }
                    if let channelID, videos[index].channelID != channelID { continue }
                    result.append(index)
                }
            }
        }
        rows = result
    }
}
