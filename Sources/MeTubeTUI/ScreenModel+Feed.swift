import Foundation
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
            message = FooterMessage(text: "copied \(video.url)", isError: false)
            return [.copy(video.url)]
        case .toggleShorts:
            query.hideShorts.toggle()
            stickyVideoIDs = []
            refilter(keeping: selectedVideo?.id)
            message = FooterMessage(text: query.hideShorts ? "Shorts hidden" : "Shorts shown", isError: false)
        case .cycleFilter:
            cycleBuiltInView()
        case .views:
            openViewPicker()
        case .markAllSkipped:
            askBulkMark(.skipped)
        case .markAllWatched:
            askBulkMark(.watched)
        case .search:
            searchInput = ""
            searchOrigin = feedCursor.selection
        case .nextMatch, .previousMatch:
            guard !searchText.isEmpty else {
                message = FooterMessage(text: keyMap.message("no search yet", hints: [(.search, "starts one")]), isError: false)
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
            message = FooterMessage(text: keyMap.hint(.conflicts, "shows the conflicts") ?? "only in the conflicts view", isError: false)
        case .retryFailing, .editTags, .importYouTube, .followChannel:
            message = FooterMessage(text: keyMap.hint(.channels, "shows the channels and their fetch results") ?? "only in the channels view", isError: false)
        case .quit, .help, .syncNow, .fullResync, .toggleDetails, .scrollDetailsDown, .scrollDetailsUp, .nextDetailsItem, .previousDetailsItem, .useDetailsItem, .jumpToView, .undo, .toggleQueue, .queue, .downloads:
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
        guard video.availability.isPlayable else {
            message = FooterMessage(text: Self.notPlayableText(video, now: now, timeZone: timeZone), isError: false)
            return []
        }
        if let player { return playTracked(video, player) }
        message = FooterMessage(text: "opening \(video.url)", isError: false)
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
    /// Returns how many title regexes the view's query stopped at their limit.
    @discardableResult
    mutating func refilter(keeping selectedID: String?) -> Int {
        let offset = feedCursor.selection - feedCursor.scroll
        let oldSelection = feedCursor.selection
        let stopped = computeRows()
        var target = oldSelection
        if let selectedID {
            let index = library.index(of: selectedID)
            if let index, let position = showsQueue || query.filter == .upcoming ? rows.firstIndex(of: index) : Self.position(of: index, in: rows) { target = position }
        }
        feedCursor.select(target, atOffset: offset, count: rows.count, visible: listHeight)
        if !searchText.isEmpty { countMatches() }
        return stopped
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

    /// Computes the rows of the view in use; returns how many title regexes its query stopped.
    @discardableResult
    mutating func computeRows() -> Int {
        viewScan = nil
        if showsQueue {
            rows = queueRows()
            return 0
        }
        rows = []
        return scanRows(from: 0).stopped
    }

    /// Appends the rows of the view in use among at most `videoLimit` videos from `start`, until
    /// `rowTarget` rows are there; returns the next video to scan (`nil` at the library's end) and
    /// how many title regexes the view's query stopped.
    mutating func scanRows(from start: Int, until rowTarget: Int = .max, videoLimit: Int = .max) -> (next: Int?, stopped: Int) {
        var result = rows
        rows = []
        result.reserveCapacity(library.videos.count)
        var next: Int?
        let filter = query.filter
        let viewQuery = query.query
        let admission = RowAdmission(filter: filter, hasQuery: viewQuery != nil, query: query, hiddenByRules: hiddenByRules, now: now)
        let library = library
        var context = QueryContext(library: library, statusesKnown: statusesKnown, now: now)
        library.videos.withUnsafeBufferPointer { videos in
            statuses.withUnsafeBufferPointer { statuses in
                videoFlags.withUnsafeBufferPointer { flags in
                    let end = start + min(videoLimit, videos.count - start)
                    if end < videos.count { next = end }
                    for index in start..<end {
                        if result.count >= rowTarget {
                            next = index
                            break
                        }
                        guard admission.admitsVideo(at: index, of: videos, flags: flags[index]) else { continue }
                        if stickyVideoIDs.isEmpty || !stickyVideoIDs.contains(videos[index].id) {
                            guard admission.admitsStatus(statuses[index], flags: flags[index], at: index) else { continue }
                            if let viewQuery, !viewQuery.matches(videos[index], in: &context) { continue }
                        }
                        result.append(index)
                    }
                }
            }
        }
        if filter == .upcoming { result.sort { FeedFilter.upcomingOrder(library.videos[$0], library.videos[$1]) } }
        rows = result
        return (next, context.stoppedRegexes)
    }

    /// Why `video` does not open: when an upcoming one starts, or that it is gone and why.
    static func notPlayableText(_ video: Video, now: Date, timeZone: TimeZone) -> String {
        if let reason = video.availability.reason { return "not watchable: this video is \(reason)" }
        return "not started yet: it starts \(Formatting.startText(video.scheduledStart, now: now, timeZone: timeZone))"
    }
}
