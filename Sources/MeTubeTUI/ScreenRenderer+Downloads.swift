import MeTubeCore

extension ScreenRenderer {
    /// The downloads view: each queued video, in queue order, with where its copy stands on the
    /// right; below them, when the selected video's download failed, yt-dlp's last lines.
    func drawDownloads(into grid: inout CellGrid) {
        guard !model.rows.isEmpty else {
            drawEmpty(model.keyMap.message("nothing queued", hints: [(.toggleQueue, "queues the selected video")]), into: &grid)
            return
        }
        let selectedID = model.library.videos[model.rows[model.feedCursor.selection]].id
        let failure = errorBlock(of: selectedID)
        let visible = max(1, model.listHeight - failure.count)
        let cursor = model.feedCursor
        let scroll = max(cursor.scroll, cursor.selection - visible + 1)
        let stateWidth = min(40, max(16, grid.width / 2))
        for line in 0..<visible {
            let position = scroll + line
            guard position < model.rows.count else { break }
            let row = line + 1
            let video = model.library.videos[model.rows[position]]
            if let copy = model.downloads.glyph(of: video.id, unicode: model.unicode) { grid.put(copy, row: row, column: 0, style: .accent) }
            field(video.title, into: &grid, row: row, column: 2, width: grid.width - 3 - stateWidth)
            field(model.downloads.stateText(of: video.id), into: &grid, row: row, column: grid.width - stateWidth, width: stateWidth,
                  style: style(ofDownload: video.id), alignRight: true)
            if position == cursor.selection { grid.invert(row: row) }
        }
        for (offset, line) in failure.enumerated() {
            field(line.0, into: &grid, row: model.listHeight - failure.count + 1 + offset, column: 0, width: grid.width, style: line.1)
        }
    }

    /// The details pane's lines for a video whose download failed: the class, and yt-dlp's last
    /// lines; none otherwise.
    func downloadFailureLines(of videoID: String) -> [(String, CellStyle)] {
        guard case .failed(let failure, _)? = model.downloads.problems[videoID] else { return [] }
        return [("download failed: \(failure.summary)", .error)] + model.downloads.errorLines(of: videoID).map { ($0, .dim) }
    }

    private func errorBlock(of videoID: String) -> [(String, CellStyle)] {
        let lines = model.downloads.errorLines(of: videoID)
        guard !lines.isEmpty, model.listHeight > lines.count + 2 else { return [] }
        return [("yt-dlp's last lines:", .dim)] + lines.map { ($0, .error) }
    }

    private func style(ofDownload videoID: String) -> CellStyle {
        switch model.downloads.problems[videoID] {
        case .failed?: .error
        case .waiting?: .dim
        default: model.downloads.copies[videoID] != nil || model.downloads.active[videoID] != nil ? .accent : .dim
        }
    }
}
