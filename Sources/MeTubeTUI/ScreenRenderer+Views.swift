import MeTubeCore
import MeTubeSync

extension ScreenRenderer {
    /// Columns of a feed row before the channel name: badge, mark, age.
    private static let feedPrefixWidth = 9
    /// Columns of the duration field.
    private static let durationWidth = 8

    func drawFeed(into grid: inout CellGrid) {
        if model.showsDownloads { return drawDownloads(into: &grid) }
        guard !model.rows.isEmpty else {
            drawEmpty(model.keyMap.message("nothing here", hints: [(.cycleFilter, "changes the filter")]), into: &grid)
            return
        }
        let cursor = model.feedCursor
        let channelWidth = min(20, max(8, grid.width / 5))
        let markSyncReachable = model.services[.markSyncService]?.isReachable ?? true
        for line in 0..<model.listHeight {
            let position = cursor.scroll + line
            guard position < model.rows.count else { break }
            let row = line + 1
            let video = model.library.videos[model.rows[position]]
            let mark = model.library.marks[video.id]
            let status = model.status(ofVideoAt: model.rows[position])
            if let mark {
                let state = mark.syncState.displayed(serviceReachable: markSyncReachable)
                grid.put(state.badge(unicode: model.unicode), row: row, column: 0, style: Self.style(of: state))
            }
            if let copy = model.downloads.glyph(of: video.id, unicode: model.unicode) { grid.put(copy, row: row, column: 1, style: .accent) }
            let availability = video.availability
            grid.put(availability == .available ? glyph(of: status) : glyph(of: availability), row: row, column: 2,
                     style: (status == .unwatched || status == .unknown) && !availability.isGone ? .accent : .dim)
            field(Formatting.age(of: video.published, now: model.now), into: &grid, row: row, column: 4, width: 4, style: .dim, alignRight: true)
            let channelName = model.library.channels[video.channelID]?.displayName ?? video.channelID
            field(channelName, into: &grid, row: row, column: Self.feedPrefixWidth, width: channelWidth, style: .accent)
            let titleColumn = Self.feedPrefixWidth + channelWidth + 1
            let titleWidth = grid.width - titleColumn - Self.durationWidth - 1
            field(video.title, into: &grid, row: row, column: titleColumn, width: titleWidth,
                  style: status == .watched || status == .skipped || availability.isGone ? .dim : .normal)
            let progress = model.progressText(of: video.id) ?? model.downloads.progressText(of: video.id, unicode: model.unicode)
            let availabilityText = self.availabilityText(of: video)
            field(progress ?? availabilityText ?? Formatting.duration(video.duration), into: &grid, row: row, column: grid.width - Self.durationWidth,
                  width: Self.durationWidth, style: progress == nil && (availabilityText == nil || availability.isGone) ? .dim : .accent, alignRight: true)
            if position == cursor.selection { grid.invert(row: row) }
        }
    }

    func drawChannels(into grid: inout CellGrid) {
        guard !model.channelList.isEmpty else {
            drawEmpty("no channels yet; `metube import FILE` or `metube channels add ID` follows some", into: &grid)
            return
        }
        let cursor = model.channelCursor
        for line in 0..<model.listHeight {
            let position = cursor.scroll + line
            guard position < model.channelList.count else { break }
            let row = line + 1
            let channel = model.channelList[position]
            field(Formatting.count(channel.unseen), into: &grid, row: row, column: 0, width: 7, style: channel.unseen > 0 ? .accent : .dim, alignRight: true)
            field(Formatting.count(channel.total), into: &grid, row: row, column: 8, width: 7, style: .dim, alignRight: true)
            if let syncState = channel.syncState {
                let state = syncState.displayed(serviceReachable: model.services[.markSyncService]?.isReachable ?? true)
                grid.put(state.badge(unicode: model.unicode), row: row, column: 15, style: Self.style(of: state))
            }
            let fetch = fetchText(of: channel)
            let fetchWidth = min(TextWidth.of(fetch), grid.width / 2)
            let nameWidth = grid.width - 17 - fetchWidth - 1
            field(channel.name, into: &grid, row: row, column: 17, width: nameWidth)
            if !channel.tags.isEmpty, TextWidth.of(channel.name) + 2 < nameWidth {
                let tagsColumn = 17 + TextWidth.of(channel.name) + 2
                field(channel.tags.map { "#\($0)" }.joined(separator: " "), into: &grid, row: row, column: tagsColumn, width: 17 + nameWidth - tagsColumn, style: .dim)
            }
            field(fetch, into: &grid, row: row, column: grid.width - fetchWidth, width: fetchWidth, style: channel.isFailing ? .conflict : .dim)
            if position == cursor.selection { grid.invert(row: row) }
        }
    }

    /// A channel's last fetch in words: `ok 5 min ago`, `failing since 14:02: HTTP 404`, or
    /// nothing when it was never fetched directly.
    private func fetchText(of channel: ChannelSummary) -> String {
        guard let fetch = channel.fetch else { return "" }
        if let since = fetch.failingSince {
            let when = model.now.timeIntervalSince(since) < 86_400 ? Formatting.clock(since, timeZone: model.timeZone) : Formatting.ago(since, now: model.now)
            return "failing since \(when): \(fetch.lastError ?? "unknown error")"
        }
        return fetch.lastSuccess.map { "ok \(Formatting.ago($0, now: model.now))" } ?? ""
    }

    func drawConflicts(into grid: inout CellGrid) {
        guard !model.conflictList.isEmpty else {
            drawEmpty("no conflicts", into: &grid)
            return
        }
        let cursor = model.conflictCursor
        let separator = model.unicode ? " │ " : " | "
        for line in 0..<model.listHeight {
            let position = cursor.scroll + line
            guard position < model.conflictList.count else { break }
            let row = line + 1
            let videoID = model.conflictList[position]
            guard let mark = model.library.marks[videoID] else { continue }
            let title = model.library.video(videoID)?.title ?? videoID
            let theirs = mark.theirs.map { "theirs: \($0.status.rawValue) (\($0.deviceID ?? "server"))" } ?? "theirs: unknown"
            let sides = "mine: \(mark.status.rawValue) (\(mark.deviceID))\(separator)\(theirs)"
            let sidesWidth = min(TextWidth.of(sides), grid.width * 2 / 3)
            grid.put(SyncState.conflict.badge(unicode: model.unicode), row: row, column: 0, style: .conflict)
            field(title, into: &grid, row: row, column: 2, width: grid.width - sidesWidth - 3)
            field(sides, into: &grid, row: row, column: grid.width - sidesWidth, width: sidesWidth, style: .conflict)
            if position == cursor.selection { grid.invert(row: row) }
        }
    }

    func drawHelp(into grid: inout CellGrid) {
        let lines = HelpText.lines(model.keyMap)
        let cursor = model.helpCursor
        for line in 0..<model.listHeight {
            let position = cursor.scroll + line
            guard position < lines.count else { break }
            let row = line + 1
            let entry = lines[position]
            if entry.isHeading {
                field(entry.text, into: &grid, row: row, column: 1, width: grid.width - 1, style: .header)
            } else {
                field(entry.keys, into: &grid, row: row, column: 3, width: 14, style: .accent)
                field(entry.text, into: &grid, row: row, column: 18, width: grid.width - 18)
            }
            if position == cursor.selection { grid.invert(row: row) }
        }
    }

    func drawEmpty(_ text: String, into grid: inout CellGrid) {
        field(text, into: &grid, row: 1 + model.listHeight / 2, column: 2, width: grid.width - 4, style: .dim)
    }

    /// The glyph that stands for a video not simply available, in the mark's place.
    private func glyph(of availability: Availability) -> String {
        switch availability {
        case .available: ""
        case .upcoming: model.unicode ? "◷" : "^"
        case .live: model.unicode ? "◉" : "!"
        case .membersOnly: "$"
        case .gone, .privateVideo: model.unicode ? "✕" : "x"
        }
    }

    /// What the length column says of a video not simply available: the countdown of an upcoming
    /// one, `live`, `members`, or why it is gone; `nil` for an available video.
    private func availabilityText(of video: Video) -> String? {
        switch video.availability {
        case .available: nil
        case .upcoming: Formatting.countdown(to: video.scheduledStart, now: model.now)
        case .live: "live"
        case .membersOnly: "members"
        case .gone, .privateVideo: video.availability.reason
        }
    }

    private func glyph(of status: DisplayStatus) -> String {
        switch status {
        case .unknown: "?"
        case .unwatched: model.unicode ? "●" : "*"
        case .watched: model.unicode ? "○" : "o"
        case .skipped: model.unicode ? "⊘" : "-"
        }
    }

    static func style(of state: SyncState) -> CellStyle {
        switch state {
        case .synced: .synced
        case .pending: .pending
        case .conflict: .conflict
        case .offline: .offline
        }
    }
}
