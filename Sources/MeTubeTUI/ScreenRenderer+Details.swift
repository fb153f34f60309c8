import Foundation
import MeTubeCore
import MeTubeSync
import MeTubeThumbnails

extension ScreenRenderer {
    /// The feed, and the details pane beside or below it when open.
    func drawFeedAndDetails(into grid: inout CellGrid) {
        guard let layout = model.detailsLayout else {
            drawFeed(into: &grid)
            return
        }
        if layout.isBeside {
            var list = CellGrid(width: layout.listWidth, height: grid.height)
            drawFeed(into: &list)
            for row in 1...model.listHeight {
                for column in 0..<layout.listWidth { grid[row, column] = list[row, column] }
                grid.put(model.unicode ? "│" : "|", row: row, column: layout.listWidth, style: .dim)
            }
        } else {
            drawFeed(into: &grid)
            grid.put(String(repeating: model.unicode ? "─" : "-", count: grid.width), row: layout.top - 1, column: 0, style: .dim)
        }
        drawDetails(layout, into: &grid)
    }

    private func drawDetails(_ layout: DetailsLayout, into grid: inout CellGrid) {
        for row in layout.top..<(layout.top + layout.height) { grid.clear(row: row, from: layout.left) }
        guard let video = model.selectedVideo else { return }
        drawPicture(of: video, layout, into: &grid)
        var lines: [(String, CellStyle)] = []
        let textLeft = layout.isBeside ? layout.left : layout.left + layout.pictureColumns + (layout.pictureColumns > 0 ? 1 : 0)
        let textWidth = layout.left + layout.width - textLeft
        let textTop = layout.isBeside ? layout.top + layout.pictureRows + (layout.pictureRows > 0 ? 1 : 0) : layout.top
        for line in DescriptionText.wrap(shown(video.title), width: textWidth) { lines.append((line, .header)) }
        lines.append((shown(model.library.channels[video.channelID]?.displayName ?? video.channelID), .accent))
        lines.append(("\(dateText(video.published)) (\(Formatting.ago(video.published, now: model.now)))" + durationText(video), .dim))
        if let counts = countsText(video) { lines.append((counts, .dim)) }
        if let markLine = markText(of: video.id) { lines.append(markLine) }
        if let bar = positionBar(of: video, width: textWidth) { lines.append((bar, .accent)) }
        lines.append(contentsOf: downloadFailureLines(of: video.id))
        lines.append(("", .normal))
        let rows = layout.top + layout.height - textTop
        let items = itemLines(room: rows - lines.count)
        if !items.isEmpty { lines.append(contentsOf: items + [("", .normal)]) }
        let room = rows - lines.count
        lines.append(contentsOf: descriptionLines(width: textWidth, count: room).map { ($0, .normal) })
        for (offset, line) in lines.prefix(max(layout.top + layout.height - textTop, 0)).enumerated() {
            field(line.0, into: &grid, row: textTop + offset, column: textLeft, width: textWidth, style: line.1)
        }
    }

    private func drawPicture(of video: Video, _ layout: DetailsLayout, into grid: inout CellGrid) {
        guard layout.pictureColumns > 0, layout.pictureRows > 0 else { return }
        let picture = model.details.picture.flatMap {
            $0.videoID == video.id && $0.columns == layout.pictureColumns && $0.rows == layout.pictureRows ? $0.state : nil
        } ?? .waiting
        switch picture {
        case .ready(let drawn):
            for row in 0..<min(drawn.height, layout.pictureRows) {
                for column in 0..<min(drawn.width, layout.pictureColumns) {
                    let cell = drawn[column, row]
                    grid[layout.top + row, layout.left + column] = Cell(
                        character: model.unicode || cell.character.isASCII ? cell.character : " ", width: 1, style: .normal, inverse: false,
                        colors: drawn.colors == .none ? nil : CellColors(foreground: cell.foreground, background: cell.background, isDirect: drawn.colors == .direct))
                }
            }
        case .waiting, .unavailable:
            let reason: String
            if case .unavailable(let text) = picture { reason = text } else { reason = "…" }
            let dot = model.unicode ? "·" : "."
            for row in 0..<layout.pictureRows {
                grid.put(String(repeating: dot, count: layout.pictureColumns), row: layout.top + row, column: layout.left, style: .dim)
            }
            let middle = layout.top + layout.pictureRows / 2
            let text = Formatting.truncated(shown(reason), width: max(layout.pictureColumns - 2, 1), unicode: model.unicode)
            grid.put(text, row: middle, column: layout.left + max((layout.pictureColumns - TextWidth.of(text)) / 2, 0), style: .dim)
        }
    }

    /// The description's chapters and links under a heading (`2 chapters · 1 link · P plays or
    /// copies`): at most a third of `room` of them, a window that keeps the selected one (`▸`) in
    /// sight however many there are.
    private func itemLines(room: Int) -> [(String, CellStyle)] {
        let items = model.detailsItems
        guard !items.isEmpty, room >= 3 else { return [] }
        let count = min(items.count, max(room / 3, 1))
        let selected = min(model.detailsItemIndex, items.count - 1)
        let first = min(max(selected - count / 2, 0), items.count - count)
        let chapters = items.count(where: { if case .chapter = $0 { true } else { false } })
        let separator = model.unicode ? " · " : " - "
        let heading = [chapters > 0 ? Formatting.count(chapters, "chapter") : nil, chapters < items.count ? Formatting.count(items.count - chapters, "link") : nil,
                       model.keyMap.hint(.nextDetailsItem, "selects"), model.keyMap.hint(.useDetailsItem, "plays or copies")]
        var lines = [(heading.compactMap { $0 }.joined(separator: separator), CellStyle.dim)]
        for index in first..<(first + count) {
            let marker = index == selected ? (model.unicode ? "▸ " : "> ") : "  "
            lines.append((marker + items[index].text, index == selected ? .accent : .normal))
        }
        return lines
    }

    private func descriptionLines(width: Int, count: Int) -> [String] {
        guard count > 0 else { return [] }
        guard let loaded = model.selectedDescription else { return [model.unicode ? "…" : "..."] }
        guard let text = loaded.text, !text.isEmpty else { return ["(no description)"] }
        let lines = DescriptionText.lines(text, width: width, first: model.detailsScroll, count: count)
        return model.unicode ? lines : lines.map(Formatting.ascii)
    }

    /// `2026-11-20 14:02` in the model's time zone.
    private func dateText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = model.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return "\(day) \(Formatting.clock(date, timeZone: model.timeZone))"
    }

    private func durationText(_ video: Video) -> String {
        let duration = Formatting.duration(video.duration)
        return duration.isEmpty ? "" : (model.unicode ? " · " : " - ") + duration
    }

    /// The feed's view and rating counts, when known: `23,088 views · 1,580 ratings`.
    private func countsText(_ video: Video) -> String? {
        let parts = [video.views.map { Formatting.count($0, "view") }, video.starRatings.map { Formatting.count($0, "rating") }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: model.unicode ? " · " : " - ")
    }

    /// The mark, its sync state, and which device set it when: `watched · synced · laptop 14:02`.
    private func markText(of videoID: String) -> (String, CellStyle)? {
        guard let mark = model.library.marks[videoID] else { return nil }
        let state = mark.syncState.displayed(serviceReachable: model.services[.markSyncService]?.isReachable ?? true)
        var parts = [mark.status.rawValue, "\(state.badge(unicode: model.unicode)) \(state.rawValue)"]
        if !mark.deviceID.isEmpty { parts.append("by \(mark.deviceID)") }
        if mark.hlc.millis > 0 {
            let when = Date(timeIntervalSince1970: Double(mark.hlc.millis) / 1000)
            parts.append(dateText(when))
        }
        return (shown(parts.joined(separator: model.unicode ? " · " : " - ")), Self.style(of: state))
    }

    /// The playback position as a bar: `▶ ████░░░░░░ 12:34 / 45:00`.
    private func positionBar(of video: Video, width: Int) -> String? {
        guard let position = model.library.playbackPositions[video.id], position.seconds > 0 else { return nil }
        guard let duration = position.duration ?? video.duration.map(Double.init), duration > 0 else { return nil }
        let label = " \(DurationText.format(Int(position.seconds))) / \(DurationText.format(Int(duration)))"
        let barWidth = max(min(width - TextWidth.of(label), 30), 4)
        let filled = min(barWidth, Int((position.seconds / duration * Double(barWidth)).rounded(.down)))
        let (full, empty) = model.unicode ? ("█", "░") : ("#", "-")
        return String(repeating: full, count: filled) + String(repeating: empty, count: barWidth - filled) + label
    }
}
