import Foundation
import MeTubeCore
import MeTubeStore

/// The watch-later queue in the TUI: `l` puts the selected video in or takes it out, `L` shows
/// the queue in the feed's place, in its order, and there `J`/`K` (the details pane's scroll keys,
/// free while the pane is closed) move the selected video down or up.
extension ScreenModel {
    /// Performs `action` when it is the queue's here; `nil` when it is not.
    mutating func performQueue(_ action: Action) -> [Effect]? {
        switch action {
        case .downloads:
            return toggleDownloads()
        case .queue:
            showsQueue = screen == .feed && !showsDownloads ? !showsQueue : true
            showsDownloads = false
            screen = .feed
            rebuildRows()
            return []
        case .toggleQueue where screen == .feed:
            return toggleQueueOfSelected()
        case .back where screen == .feed && showsQueue:
            showsQueue = false
            showsDownloads = false
            rebuildRows()
            return []
        case .scrollDetailsDown, .scrollDetailsUp:
            guard screen == .feed, showsQueue, detailsLayout == nil else { return nil }
            return moveInQueue(down: action == .scrollDetailsDown)
        default:
            return nil
        }
    }

    /// Takes in entries the store made durable; the queue view follows them.
    mutating func applyQueued(_ entries: [QueueEntry]) {
        for entry in entries { library.apply(entry) }
        if showsQueue { refilter(keeping: selectedVideo?.id) }
    }

    /// The queued videos in the library, as indices into `library.videos`, in queue order.
    func queueRows() -> [Int] {
        let order = library.queuedVideoIDs
        guard !order.isEmpty else { return [] }
        let place = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var rows = [Int?](repeating: nil, count: order.count)
        for (index, video) in library.videos.enumerated() {
            if let position = place[video.id] { rows[position] = index }
        }
        return rows.compactMap { $0 }
    }

    private mutating func toggleQueueOfSelected() -> [Effect] {
        guard let video = selectedVideo else { return [] }
        let stamp = queueStamp(for: [video.id])
        if library.isQueued(video.id) {
            library.entryRemoving(video.id, hlc: stamp, deviceID: "").map { library.apply($0) }
            message = FooterMessage(text: "taken out of the queue", isError: false)
            if showsQueue { refilter(keeping: nil) }
            return [.queue(.remove(video.id))]
        }
        library.entryAdding(video.id, hlc: stamp, deviceID: "").map { library.apply($0) }
        let hint = showsQueue ? nil : keyMap.hint(.queue, "shows it")
        message = FooterMessage(text: "queued (\(Formatting.count(library.queuedVideoIDs.count, "video")) in the queue\(hint.map { "; \($0)" } ?? ""))", isError: false)
        return [.queue(.add(video.id))]
    }

    private mutating func moveInQueue(down: Bool) -> [Effect] {
        guard let video = selectedVideo else { return [] }
        let target = feedCursor.selection + (down ? 1 : -1)
        guard rows.indices.contains(target) else { return [] }
        let other = library.videos[rows[target]].id
        let entries = library.entriesSwapping(video.id, other, hlc: queueStamp(for: [video.id, other]), deviceID: "")
        guard !entries.isEmpty else { return [] }
        for entry in entries { library.apply(entry) }
        rows.swapAt(feedCursor.selection, target)
        feedCursor.navigate(down ? .moveDown : .moveUp, count: rows.count, visible: listHeight)
        return [.queue(.swap(video.id, other))]
    }

    /// A clock reading for an entry shown before the store writes it: after every queue entry and
    /// the videos' marks, so it takes effect at once and in order; the store's own entry replaces it.
    private func queueStamp(for videoIDs: [String]) -> HybridTimestamp {
        let known = library.queue.values.map(\.hlc) + videoIDs.compactMap { library.marks[$0]?.hlc }
        let wall = HybridTimestamp(millis: Int64(now.timeIntervalSince1970 * 1000))
        guard let latest = known.max(), latest >= wall else { return wall }
        return HybridTimestamp(millis: latest.millis, counter: latest.counter &+ 1)
    }
}
