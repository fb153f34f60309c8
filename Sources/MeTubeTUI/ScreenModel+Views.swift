import MeTubeCore
import MeTubeSync

extension ScreenModel {
    mutating func performInChannels(_ action: Action) -> [Effect] {
        switch action {
        case .moveDown, .moveUp, .pageDown, .pageUp, .moveFirst, .moveLast:
            channelCursor.navigate(action, count: channelList.count, visible: listHeight)
        case .open:
            guard !channelList.isEmpty else { return [] }
            query.channelID = channelList[channelCursor.selection].id
            screen = .feed
            rebuildRows()
        case .back, .channels:
            query.channelID = nil
            screen = .feed
            rebuildRows()
        case .retryFailing:
            return retryFailingChannels()
        case .editTags:
            startTagEditing()
        case .importYouTube:
            return startYouTubeImport()
        case .followChannel:
            startFollowing()
        case .conflicts:
            rebuildConflicts()
            screen = .conflicts
        default:
            break
        }
        return []
    }

    /// Asks for a sync, which fetches the failing channels' feeds again, when any is failing.
    private mutating func retryFailingChannels() -> [Effect] {
        let failing = channelList.filter(\.isFailing).count
        guard failing > 0 else {
            message = FooterMessage(text: "no channel is failing", isError: false)
            return []
        }
        guard services[.videoSource] != .notConfigured else {
            message = FooterMessage(text: "sync is not configured", isError: false)
            return []
        }
        message = FooterMessage(text: "fetching \(Formatting.count(failing, "failing channel")) again…", isError: false)
        return [.syncNow]
    }

    mutating func performInConflicts(_ action: Action) -> [Effect] {
        switch action {
        case .moveDown, .moveUp, .pageDown, .pageUp, .moveFirst, .moveLast:
            conflictCursor.navigate(action, count: conflictList.count, visible: listHeight)
        case .keepMine, .takeTheirs:
            guard !conflictList.isEmpty else { return [] }
            let videoID = conflictList[conflictCursor.selection]
            guard let mark = library.marks[videoID] else { return [] }
            let status = action == .keepMine ? mark.status : (mark.theirs?.status ?? mark.status)
            let effects = markVideo(videoID, as: status)
            message = FooterMessage(text: "\(action == .keepMine ? "kept mine" : "took theirs"): \(status.rawValue)", isError: false)
            rebuildConflicts()
            return effects
        case .back, .conflicts:
            screen = .feed
        case .channels:
            openChannels()
        default:
            break
        }
        return []
    }

    mutating func performInHelp(_ action: Action) -> [Effect] {
        switch action {
        case .moveDown, .moveUp, .pageDown, .pageUp, .moveFirst, .moveLast:
            helpCursor.navigate(action, count: HelpText.lines(keyMap).count, visible: listHeight)
        case .back:
            screen = .feed
        default:
            break
        }
        return []
    }

    mutating func openChannels() {
        rebuildChannels()
        if let channelID = query.channelID, let index = channelList.firstIndex(where: { $0.id == channelID }) {
            channelCursor.select(index, count: channelList.count, visible: listHeight)
        }
        screen = .channels
    }

    /// Counts every channel's videos and unseen videos (neither watched nor skipped).
    mutating func rebuildChannels() {
        var unseen: [String: Int] = [:]
        var total: [String: Int] = [:]
        for (index, video) in library.videos.enumerated() {
            total[video.channelID, default: 0] += 1
            switch statuses[index] {
            case .unknown, .unwatched: unseen[video.channelID, default: 0] += 1
            case .watched, .skipped: break
            }
        }
        channelList = library.channels.values
            .map { ChannelSummary(id: $0.id, name: $0.displayName, unseen: unseen[$0.id] ?? 0, total: total[$0.id] ?? 0, fetch: channelFetches[$0.id],
                                  tags: $0.tags ?? [], syncState: library.subscriptions[$0.id]?.syncState) }
            .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        channelCursor.clamp(count: channelList.count, visible: listHeight)
    }

    /// Lists the marks in conflict, newest video first.
    mutating func rebuildConflicts() {
        conflictList = library.marks.values
            .filter { $0.syncState == .conflict }
            .map(\.videoID)
            .sorted { lhs, rhs in
                switch (library.video(lhs), library.video(rhs)) {
                case let (left?, right?): Library.feedOrder(left, right)
                case (nil, nil): lhs < rhs
                case (_?, nil): true
                case (nil, _?): false
                }
            }
        conflictCursor.clamp(count: conflictList.count, visible: listHeight)
    }
}
