import MeTubeCore

/// Views (`v`, `1`–`9`, `f`): the built-in filters and the config file's `[views.NAME]`, switched
/// by filtering the library in memory, never by reading the store again.
extension ScreenModel {
    /// The view in use.
    public var currentView: SavedView { views[viewIndex] }

    /// Opens the picker on the view in use, with every view's counts.
    mutating func openViewPicker() {
        countViews()
        viewCursor.select(viewIndex, count: views.count, visible: listHeight)
        screen = .views
    }

    mutating func performInViewPicker(_ action: Action) -> [Effect] {
        switch action {
        case .moveDown, .moveUp, .pageDown, .pageUp, .moveFirst, .moveLast:
            viewCursor.navigate(action, count: views.count, visible: listHeight)
        case .open:
            switchToView(viewCursor.selection)
        case .back, .views:
            screen = .feed
        case .channels:
            openChannels()
        default:
            break
        }
        return []
    }

    /// Switches to the view the n-th key bound to ``Action/jumpToView`` stands for (`1` the first).
    mutating func jumpToView(_ key: Key) -> [Effect] {
        message = nil
        guard let position = keyMap.keys(for: .jumpToView).firstIndex(of: key) else { return [] }
        guard position < views.count else {
            message = FooterMessage(text: keyMap.message("there is no view \(position + 1)", hints: [(.views, "lists the views")]), isError: false)
            return []
        }
        switchToView(position)
        return []
    }

    /// `f`: the built-in view after the current one; from a saved view, the first built-in view.
    mutating func cycleBuiltInView() {
        let next = currentView.query == nil ? query.filter.next : FeedFilter.allCases[0]
        switchToView(views.firstIndex { $0.query == nil && $0.filter == next } ?? viewIndex, filter: next)
    }

    /// Shows the view at `index` of ``views`` in the feed, keeping the channel and Shorts choices.
    /// `filter` stands in for a built-in view missing from ``views``.
    ///
    /// A built-in view keeps the selected video when it shows it. A saved view opens at the top
    /// with its first screen of rows; the rest follow from ``continueViewScan()`` while no key
    /// waits (or at once, before the next action), so the key is answered without scanning the
    /// whole library through the query.
    mutating func switchToView(_ index: Int, filter: FeedFilter? = nil) {
        let selectedID = selectedVideo?.id
        viewIndex = index
        query.filter = filter ?? views[index].filter
        query.query = filter == nil ? views[index].query : nil
        screen = .feed
        stickyVideoIDs = []
        guard query.query != nil else {
            reportStoppedRegexes(refilter(keeping: selectedID))
            return
        }
        rows = []
        feedCursor = ListCursor()
        let (next, stopped) = scanRows(from: 0, until: listHeight)
        viewScan = next.map { ViewScan(next: $0, stoppedRegexes: stopped) }
        if viewScan == nil { finishedViewScan(stoppedRegexes: stopped) }
    }

    /// Whether a saved view's rows are still being computed.
    public var isScanningView: Bool { viewScan != nil }

    /// Computes the next step of a saved view's rows; returns whether the screen changed.
    @discardableResult
    public mutating func continueViewScan() -> Bool {
        guard let scan = viewScan else { return false }
        let (next, stopped) = scanRows(from: scan.next, videoLimit: ViewScan.videosPerStep)
        viewScan = next.map { ViewScan(next: $0, stoppedRegexes: scan.stoppedRegexes + stopped) }
        if viewScan == nil { finishedViewScan(stoppedRegexes: scan.stoppedRegexes + stopped) }
        return true
    }

    /// Computes the rest of a saved view's rows now (an action needs them all).
    mutating func finishViewScan() {
        guard let scan = viewScan else { return }
        let (_, stopped) = scanRows(from: scan.next)
        viewScan = nil
        finishedViewScan(stoppedRegexes: scan.stoppedRegexes + stopped)
    }

    private mutating func finishedViewScan(stoppedRegexes: Int) {
        feedCursor.clamp(count: rows.count, visible: listHeight)
        if !searchText.isEmpty { countMatches() }
        reportStoppedRegexes(stoppedRegexes)
    }

    private mutating func reportStoppedRegexes(_ stopped: Int) {
        guard stopped > 0 else { return }
        message = FooterMessage(text: "\(Formatting.count(stopped, "title regex evaluation")) stopped at the step limit; those videos are left out", isError: true)
    }

    /// Counts every view's unseen and total videos in the library as the feed would show them
    /// (channel, Shorts, availability and `hide` rules applied).
    mutating func countViews() {
        var context = QueryContext(library: library, statusesKnown: statusesKnown, now: now)
        viewCounts = views.map { view in
            var count = ViewCount()
            let admission = RowAdmission(filter: view.filter, hasQuery: view.query != nil, query: query, hiddenByRules: hiddenByRules, now: now)
            library.videos.withUnsafeBufferPointer { videos in
                videoFlags.withUnsafeBufferPointer { flags in
                    for index in videos.indices {
                        let status = statuses[index]
                        guard admission.admitsVideo(at: index, of: videos, flags: flags[index]),
                              admission.admitsStatus(status, flags: flags[index], at: index) else { continue }
                        if let viewQuery = view.query, !viewQuery.matches(videos[index], in: &context) { continue }
                        count.total += 1
                        if status == .unwatched || status == .unknown { count.unseen += 1 }
                    }
                }
            }
            return count
        }
    }

    /// Works out which videos the `hide` rules leave out (none when no rule hides).
    mutating func recomputeHiddenByRules() {
        guard query.rules.hidesAny else {
            hiddenByRules = []
            return
        }
        var context = QueryContext(library: library, statusesKnown: statusesKnown, now: now)
        hiddenByRules = library.videos.map { query.rules.hides($0, in: &context) }
    }
}
