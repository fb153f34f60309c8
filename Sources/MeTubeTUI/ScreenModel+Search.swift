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
        switch key {
        case .enter:
            searchInput = nil
            message = searchText.isEmpty ? nil : StatusMessage(text: "\(Formatting.count(searchMatchCount, "match")) for \"\(searchText)\"", isError: searchMatchCount == 0)
            return []
        case .escape:
            searchInput = nil
            searchText = ""
            searchMatchCount = 0
            feedCursor.select(searchOrigin, count: rows.count, visible: listHeight)
            return []
        case .backspace, .delete:
            guard !text.isEmpty else { return [] }
            text.removeLast()
        case .character(let character):
            text.append(character)
        default:
            return []
        }
        searchInput = text
        searchText = text
        incrementalSearch()
        return []
    }

    /// Moves to the first match at or after where the search started, and counts the matches.
    private mutating func incrementalSearch() {
        guard !searchText.isEmpty else {
            searchMatchCount = 0
            feedCursor.select(searchOrigin, count: rows.count, visible: listHeight)
            return
        }
        prepareSearch()
        let needle = SearchIndex.key(searchText)
        var count = 0
        var firstAfterOrigin: Int?
        var firstOverall: Int?
        for (position, index) in rows.enumerated() where searchIndex!.matches(index, needle) {
            count += 1
            if firstOverall == nil { firstOverall = position }
            if firstAfterOrigin == nil, position >= searchOrigin { firstAfterOrigin = position }
        }
        searchMatchCount = count
        if let target = firstAfterOrigin ?? firstOverall {
            feedCursor.select(target, count: rows.count, visible: listHeight)
        }
    }

    mutating func countMatches() {
        prepareSearch()
        let needle = SearchIndex.key(searchText)
        searchMatchCount = rows.reduce(0) { $0 + (searchIndex!.matches($1, needle) ? 1 : 0) }
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
                    message = StatusMessage(text: forward ? "search wrapped to the top" : "search wrapped to the bottom", isError: false)
                }
                return
            }
        }
        message = StatusMessage(text: "no match for \"\(searchText)\"", isError: true)
    }
}
