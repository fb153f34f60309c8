import Foundation
import MeTubeCore
import MeTubeStore

/// One direct sync: fetch every channel's feed with bounded concurrency and conditional GET, then
/// merge the videos and each channel's fetch result into the store in one write. One failing
/// channel never fails the others; it is reported with its reason.
struct DirectSyncRun {
    let store: Store
    var client: DirectFeedClient
    let concurrency: Int
    let progress: @Sendable (String) -> Void
    /// The longest the whole run may take; a fetch still running then fails as its channel's
    /// error, and the others' results are kept.
    var runLimit: Duration = .seconds(900)

    /// One channel's fetch: its outcome or its error.
    private struct Fetch: Sendable {
        let channelID: String
        let result: Result<DirectFeedClient.Outcome, SyncError>
    }

    private func fetch(_ channelID: String, known: ChannelFetchResult?) async -> Fetch {
        do {
            let outcome = try await client.fetch(channelID: channelID, etag: known?.etag, lastModified: known?.lastModified)
            return Fetch(channelID: channelID, result: .success(outcome))
        } catch {
            return Fetch(channelID: channelID, result: .failure(error))
        }
    }

    func run() async throws(SyncError) -> SyncReport {
        var run = self
        run.client.runDeadline = ContinuousClock.now + runLimit
        return try await run.fetchAll()
    }

    private func fetchAll() async throws(SyncError) -> SyncReport {
        var report = SyncReport(source: .direct)
        let library = store.library()
        let previous = store.syncSnapshot().channelFetches
        let channelIDs = library.channels.keys.sorted()
        var fetches: [Fetch] = []
        await withTaskGroup(of: Fetch.self) { group in
            var pending = channelIDs[...]
            func startNext() {
                guard let id = pending.popFirst() else { return }
                let known = previous[id]
                group.addTask { await fetch(id, known: known) }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            while let fetch = await group.next() {
                fetches.append(fetch)
                if fetches.count % 50 == 0 { progress("fetched \(fetches.count) of \(channelIDs.count) feeds") }
                if !Task.isCancelled { startNext() }
            }
        }
        report.cancelled = fetches.count < channelIDs.count
        report.requests = fetches.count
        let now = Date()
        var invalid = 0
        let added = try store.syncTransaction { transaction in
            invalid = 0
            var videos: [Video] = []
            for fetch in fetches {
                var state = transaction.sync.channelFetches[fetch.channelID] ?? ChannelFetchResult()
                switch fetch.result {
                case .success(.notModified):
                    state.lastSuccess = now
                    state.failingSince = nil
                    state.lastError = nil
                case .success(.feed(let feed, let etag, let lastModified)):
                    state = ChannelFetchResult(lastSuccess: now, etag: etag, lastModified: lastModified)
                    let entries = feed.entries.filter { transaction.library.channels[$0.channelID] != nil }
                    let usable = entries.filter { PeerInput.isVideoID($0.videoID) }
                    invalid += entries.count - usable.count
                    videos += usable.map { entry in
                        var video = entry.video(fallbackDate: now)
                        video.title = PeerInput.title(video.title)
                        video.duration = transaction.library.video(entry.videoID)?.duration
                        return video
                    }
                    if let title = feed.channelTitle.map(PeerInput.title), var channel = transaction.library.channels[fetch.channelID], channel.title != title {
                        channel.title = title
                        transaction.change.channels.append(channel)
                    }
                case .failure(let error):
                    state.failingSince = state.failingSince ?? now
                    state.lastError = error.description
                }
                transaction.sync.channelFetches[fetch.channelID] = state
            }
            let added = videos.filter { transaction.library.video($0.id) == nil }.count
            transaction.change.videos = videos
            let answered = fetches.contains { if case .success = $0.result { true } else { false } }
            if !Task.isCancelled, answered || channelIDs.isEmpty { transaction.sync.lastHubSync = now }
            return (added, videos.count)
        }
        if invalid > 0 { report.notes.append("\(invalid) feed entries dropped (invalid video id)") }
        report.newVideos = added.0
        report.videosReceived = added.1
        for fetch in fetches {
            if case .failure(let error) = fetch.result { report.failedChannels[fetch.channelID] = error }
        }
        return report
    }
}
