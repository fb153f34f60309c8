extension ScreenModel {
    /// Builds the search index now, unless it is there already.
    public mutating func prepareSearch() {
        if searchIndex == nil { searchIndex = SearchIndex(library) }
    }

    /// Whether the search index must be built (it is dropped when the library changes).
    var needsSearchIndex: Bool { searchIndex == nil }

    /// Takes a search index built elsewhere, when it was built from the current library.
    mutating func install(_ index: SearchIndex, generation: Int) {
        if generation == libraryGeneration, searchIndex == nil { searchIndex = index }
    }

    mutating func handleSearchInput(_ key: Key) -> [Effect] {
        guard var text = searchInput else { return [] }
        switch PromptKey.apply(key, to: &text) {
        case .submit:
            finishSearch()
            searchInput = nil
            message = searchText.isEmpty ? nil : FooterMessage(text: "\(Formatting.count(searchMatchCount, "match")) for \"\(searchText)\"", isError: searchMatchCount == 0)
            return []
        case .cancel:
            searchInput = nil
            searchText = ""
            searchMatchCount = 0
            searchScan = nil
            feedCursor.select(searchOrigin, count: rows.count, visible: listHeight)
            return []
        case .ignored:
            return []
        case .edited:
            break
        }
        searchInput = text
        searchText = text
        incrementalSearch()
        return []
    }

    /// Whether matches are still being counted (the rest of a large feed is scanned between keys).
    public var isCountingMatches: Bool { searchScan != nil }

    /// Moves to the first match at or after where the search started, and counts the matches.
    /// On a large feed only the first ``SearchScan/rowsPerStep`` rows from there are scanned now
    /// (the first results show at once); ``continueSearch()`` scans the rest between keys.
    private mutating func incrementalSearch() {
        guard !searchText.isEmpty else {
            searchMatchCount = 0
            searchScan = nil
            feedCursor.select(searchOrigin, count: rows.count, visible: listHeight)
            return
        }
        startScan(movingCursor: true)
    }

    /// Counts the matches again (the feed's rows changed), without moving the selection.
    mutating func countMatches() {
        startScan(movingCursor: false)
    }

    private mutating func startScan(movingCursor: Bool) {
        prepareSearch()
        searchMatchCount = 0
        searchScan = SearchScan(needle: SearchIndex.key(searchText), origin: min(searchOrigin, max(rows.count - 1, 0)), rowCount: rows.count, movesCursor: movingCursor)
        _ = continueSearch()
    }

    /// Scans the next rows of a search under way; returns whether the screen changed (the count,
    /// or the selection moved to the first match). Call it again while ``isCountingMatches``.
    @discardableResult
    public mutating func continueSearch() -> Bool {
        guard var scan = searchScan, let index = searchIndex else { return false }
        guard scan.rowCount == rows.count else {
            startScan(movingCursor: false)
            return true
        }
        let wasFound = scan.found
        let end = min(scan.scanned + SearchScan.rowsPerStep, scan.rowCount)
        while scan.scanned < end {
            let position = (scan.origin + scan.scanned) % scan.rowCount
            if index.matches(rows[position], scan.needle) {
                scan.count += 1
                if scan.found == nil { scan.found = position }
            }
            scan.scanned += 1
        }
        searchMatchCount = scan.count
        if scan.movesCursor, wasFound == nil, let found = scan.found {
            feedCursor.select(found, count: rows.count, visible: listHeight)
        }
        searchScan = scan.scanned < scan.rowCount ? scan : nil
        return true
    }

    /// Scans whatever a search under way has left, at once.
    mutating func finishSearch() {
        while searchScan != nil { continueSearch() }
    }

    /// Moves to the next (or previous) match, wrapping around the feed.
    mutating func jumpToMatch(forward: Bool) {
        prepareSearch()
        let needle = SearchIndex.key(searchText)
        let count = rows.count
        guard count > 0 else { return }
        let start = feedCursor.selection
        for step in 1...count {
            let position = ((start + (forward ? step : -step)) % count + count) % count
            if searchIndex!.matches(rows[position], needle) {
                feedCursor.select(position, count: count, visible: listHeight)
                if forward ? position <= start : position >= start {
                    message = FooterMessage(text: forward ? "search wrapped to the top" : "search wrapped to the bottom", isError: false)
                }
                return
            }
        }
        message = FooterMessage(text: "no match for \"\(searchText)\"", isError: true)
    }
}

/// A search's scan of the feed rows, in the order the first match is looked for: from where the
/// search started to the end, then from the top.
struct SearchScan: Sendable {
    /// How many rows one step scans: a few milliseconds, so a keystroke's first results show
    /// within a frame at any library size.
    static let rowsPerStep = 20_000

    let needle: [UInt8]
    let origin: Int
    let rowCount: Int
    /// Whether the selection moves to the first match (a search being typed), or stays (a recount).
    let movesCursor: Bool
    var scanned = 0
    var count = 0
    /// The first match in scan order, as a feed position.
    var found: Int?

    init(needle: [UInt8], origin: Int, rowCount: Int, movesCursor: Bool) {
        self.needle = needle
        self.origin = origin
        self.rowCount = rowCount
        self.movesCursor = movesCursor
    }
}
