import MeTubeCore
import MeTubeSync

/// Draws a ``ScreenModel`` into a ``CellGrid``: header, the current view's list, status line and
/// message line. Pure: the same model always gives the same grid.
public struct ScreenRenderer: Sendable {
    /// The model drawn.
    let model: ScreenModel

    /// Draws `model` at its size.
    public static func render(_ model: ScreenModel) -> CellGrid {
        ScreenRenderer(model: model).render()
    }

    private func render() -> CellGrid {
        var grid = CellGrid(width: model.size.width, height: model.size.height)
        guard model.size.isUsable else {
            drawTooSmall(into: &grid)
            return grid
        }
        drawHeader(into: &grid)
        switch model.screen {
        case .feed: drawFeedAndDetails(into: &grid)
        case .channels: drawChannels(into: &grid)
        case .conflicts: drawConflicts(into: &grid)
        case .help: drawHelp(into: &grid)
        case .views: drawViewPicker(into: &grid)
        }
        drawStatusLine(into: &grid)
        drawMessageLine(into: &grid)
        return grid
    }

    /// Text as the terminal can show it: one line without controls; unchanged otherwise in UTF-8,
    /// `?` for non-ASCII in other locales.
    /// Every field goes through here, so no control character from a title, a channel name or an
    /// error body reaches the terminal (``DisplayText``).
    func shown(_ text: String) -> String {
        let safe = DisplayText.line(text)
        return model.unicode ? safe : Formatting.ascii(safe)
    }

    /// Writes `text` cut to `width` columns at `column`, and returns the column after the field.
    @discardableResult
    func field(_ text: String, into grid: inout CellGrid, row: Int, column: Int, width: Int, style: CellStyle = .normal, alignRight: Bool = false) -> Int {
        let cut = Formatting.truncated(shown(text), width: width, unicode: model.unicode)
        let padding = alignRight ? width - TextWidth.of(cut) : 0
        grid.put(cut, row: row, column: column + padding, style: style, limit: width - padding)
        return column + width
    }

    private func drawTooSmall(into grid: inout CellGrid) {
        let times = model.unicode ? "×" : "x"
        let lines = ["terminal too small", "need \(TerminalSize.minimum.width)\(times)\(TerminalSize.minimum.height), have \(model.size.width)\(times)\(model.size.height)"]
        let top = max(0, (grid.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            grid.put(line, row: top + offset, column: max(0, (grid.width - TextWidth.of(line)) / 2), style: .error)
        }
    }

    private func drawHeader(into grid: inout CellGrid) {
        grid.clear(row: 0, style: .header)
        var parts = ["metube"]
        switch model.screen {
        case .feed where model.showsDownloads:
            parts.append("downloads (\(Formatting.count(model.rows.count, "video")))")
        case .feed where model.showsQueue:
            parts.append("queue (\(Formatting.count(model.rows.count, "video")))")
        case .feed:
            parts.append(model.currentView.query == nil ? model.query.filter.rawValue : model.currentView.name)
            if let channelID = model.query.channelID {
                parts.append(model.library.channels[channelID]?.displayName ?? channelID)
            }
            if model.query.hideShorts { parts.append("no Shorts") }
            if !model.searchText.isEmpty { parts.append("/\(model.searchText)") }
        case .channels: parts.append("channels (unseen, videos)")
        case .conflicts:
            let hints = [model.keyMap.hint(.keepMine, "keeps mine"), model.keyMap.hint(.takeTheirs, "takes theirs")].compactMap { $0 }
            parts.append(hints.isEmpty ? "conflicts" : "conflicts (\(hints.joined(separator: ", ")))")
        case .help: parts.append("keys")
        case .views: parts.append("views (unseen, videos)")
        }
        let notice = model.newCount > 0 && model.screen == .feed ? " \(Formatting.count(model.newCount)) new \(model.unicode ? "↑" : "^") " : ""
        let noticeWidth = TextWidth.of(notice)
        field(" " + parts.joined(separator: model.unicode ? " · " : " - "), into: &grid, row: 0, column: 0, width: grid.width - noticeWidth, style: .header)
        if !notice.isEmpty { grid.put(notice, row: 0, column: grid.width - noticeWidth, style: .notice) }
    }

    private func drawStatusLine(into grid: inout CellGrid) {
        let row = grid.height - 2
        grid.clear(row: row, style: .status)
        var parts: [String] = []
        switch model.screen {
        case .feed:
            if model.currentView.query != nil { parts.append("view \(model.currentView.name)") }
            if let loading = model.loadingVideoCount {
                parts.append("\(Formatting.count(model.rows.count)) of the newest \(Formatting.count(model.library.videos.count)) · loading \(Formatting.count(loading))…")
            } else {
                let scanning = model.isScanningView ? (model.unicode ? "…" : "...") : ""
                parts.append("\(Formatting.count(model.rows.count))\(scanning) of \(Formatting.count(model.library.videos.count))")
            }
        case .channels: parts.append(Formatting.count(model.channelList.count, "channel"))
        case .conflicts: parts.append(Formatting.count(model.conflictList.count, "conflict"))
        case .help: parts.append("\(Action.allCases.count) actions")
        case .views: parts.append(Formatting.count(model.views.count, "view"))
        }
        let markSyncReachable = model.services[.markSyncService]?.isReachable ?? true
        if model.pendingCount > 0 {
            parts.append("\(SyncState.pending.displayed(serviceReachable: markSyncReachable).badge(unicode: model.unicode)) \(Formatting.count(model.pendingCount)) pending")
        }
        if model.conflictCount > 0 { parts.append("\(SyncState.conflict.badge(unicode: model.unicode)) \(Formatting.count(model.conflictCount, "conflict"))") }
        if let downloads = model.downloads.statusText(unicode: model.unicode) { parts.append(downloads) }
        parts.append("\(model.videoSourceName): " + (model.services[.videoSource] ?? .notConfigured).text(now: model.now, timeZone: model.timeZone))
        parts.append("status: " + (model.services[.markSyncService] ?? .notConfigured).text(now: model.now, timeZone: model.timeZone))
        field(" " + parts.joined(separator: model.unicode ? " │ " : " | "), into: &grid, row: row, column: 0, width: grid.width, style: .status)
    }

    private func drawMessageLine(into grid: inout CellGrid) {
        let row = grid.height - 1
        if let input = model.searchInput {
            let counting = model.isCountingMatches ? (model.unicode ? "…" : "...") : ""
            let matches = input.isEmpty ? "" : "  (\(Formatting.count(model.searchMatchCount, "match"))\(counting))"
            let end = field("/" + input, into: &grid, row: row, column: 0, width: grid.width - TextWidth.of(matches) - 1, style: .accent)
            grid.put(matches, row: row, column: end + 1, style: model.searchMatchCount == 0 && counting.isEmpty ? .error : .dim)
        } else if let input = model.tagInput {
            field("tags of \(input.channelName): \(input.text)", into: &grid, row: row, column: 0, width: grid.width, style: .accent)
        } else if let input = model.followInput {
            drawFollowPrompt(input, into: &grid, row: row)
        } else if let message = model.message {
            field(message.text, into: &grid, row: row, column: 0, width: grid.width, style: message.isError ? .error : .normal)
        } else {
            field(model.keyMap.hint(.help, "help") ?? "", into: &grid, row: row, column: 0, width: grid.width, style: .dim)
        }
    }
}
