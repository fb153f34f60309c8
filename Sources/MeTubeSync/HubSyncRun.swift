import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeFeeds
import MeTubeStore

/// One hub sync: register the store's channels, fetch the backlog of newly registered ones, then
/// page through new videos from the `afterSeq` watermark, merging each page into the store together
/// with the advanced watermark so an interrupted run resumes where it stopped.
///
/// Everything the hub sends is screened (``ScreenedHubPage``); the watermark only ever advances
/// to the largest seq the page's rows prove; the run is bounded in time (`runLimit`) and in
/// pages (``HubPageBudget``); a watermark the hub refuses is forgotten and everything fetched
/// again, as when the hub has lost this device's channels.
struct HubSyncRun {
    let store: Store
    var client: HubClient
    let pageSize: Int
    /// Whether to subscribe the store to every channel the hub holds before syncing.
    let followHubChannels: Bool
    /// The rules whose `skip` marks the new videos.
    var rules = FeedRules()
    let progress: @Sendable (String) -> Void
    /// The longest the whole run may take; no request outlives it.
    var runLimit: Duration = .seconds(900)
    /// How long to wait before syncing again while the hub is still fetching new channels
    /// (`pendingChannels` in its register answer), and how many times at most.
    var pendingFollowUpDelay: Duration = .seconds(2)
    var pendingFollowUps = 5

    func run() async throws(SyncError) -> SyncReport {
        var run = self
        run.client.limits.runDeadline = ContinuousClock.now + runLimit
        return try await run.sync()
    }

    private func sync() async throws(SyncError) -> SyncReport {
        var report = SyncReport(source: .hub)
        if followHubChannels || store.library().channels.values.contains(where: { $0.title == nil }) {
            try await adoptChannelDetails(report: &report)
        }
        let library = store.library()
        let local = Set(library.channels.keys)
        guard !local.isEmpty else { return report }
        var rejection: String?
        var sync = store.syncSnapshot()
        if !(0...HubAPI.maxAfterSeq).contains(sync.hubWatermark) {
            let reason = "the stored watermark \(sync.hubWatermark) is beyond what a hub accepts"
            rejection = reason
            try forgetHubPosition(report: &report, because: reason)
            sync = store.syncSnapshot()
        }
        let acknowledged = Set(sync.hubRegisteredChannelIDs).intersection(local)
        var hubChannels = 0
        var pending = 0
        let newChannels = try await register(local.sorted(), acknowledged: acknowledged, hubChannels: &hubChannels, pending: &pending, report: &report)
        if report.hubWasReset {
            progress("the hub lost this device's channels; registered them again and fetching everything")
            try store.syncTransaction { $0.sync.hubWatermark = 0 }
        }
        let filter = local.count <= HubAPI.maxQueryChannelIDs ? local.sorted() : nil
        var budget = HubPageBudget(channels: filter == nil ? max(local.count, hubChannels) : local.count, pageSize: pageSize)
        sync = store.syncSnapshot()
        if sync.hubWatermark > 0, !newChannels.isEmpty {
            for chunk in newChannels.chunked(HubAPI.maxQueryChannelIDs) {
                try await page(channelIDs: Array(chunk), from: 0, advancesWatermark: false, local: local, budget: &budget, report: &report)
            }
        }
        try store.syncTransaction { $0.sync.hubRegisteredChannelIDs = local.sorted() }
        let start = store.syncSnapshot().hubWatermark
        do throws(SyncError) {
            try await page(channelIDs: filter, from: start, advancesWatermark: true, local: local, budget: &budget, report: &report)
        } catch .http(status: 400, message: let message, retryAfter: _) where start > 0 && store.syncSnapshot().hubWatermark == start {
            let reason = "the hub refused the watermark \(start) (\(message))"
            rejection = reason
            try forgetHubPosition(report: &report, because: reason)
            _ = try await register(local.sorted(), acknowledged: [], hubChannels: &hubChannels, pending: &pending, report: &report)
            try store.syncTransaction { $0.sync.hubRegisteredChannelIDs = local.sorted() }
            try await page(channelIDs: filter, from: 0, advancesWatermark: true, local: local, budget: &budget, report: &report)
        }
        SyncRejections.record(in: store.directory) { $0.hubWatermark = rejection }
        for _ in 0..<pendingFollowUps where pending > 0 {
            progress("the hub is fetching \(pending) new channels; syncing again shortly")
            do { try await Task.sleep(for: pendingFollowUpDelay) } catch { throw .cancelled }
            pending = 0
            _ = try await register(newChannels, acknowledged: [], hubChannels: &hubChannels, pending: &pending, report: &report)
            try await page(channelIDs: filter, from: store.syncSnapshot().hubWatermark, advancesWatermark: true, local: local, budget: &budget, report: &report)
        }
        try store.syncTransaction { $0.sync.lastHubSync = Date() }
        return report
    }

    /// Forgets the hub watermark and the acknowledged channels, so that everything is registered
    /// and fetched again, and says why.
    private func forgetHubPosition(report: inout SyncReport, because reason: String) throws(SyncError) {
        progress("\(reason); registering again and fetching everything")
        report.notes.append("\(reason); the watermark was forgotten and everything fetched again")
        try store.syncTransaction { transaction in
            transaction.sync.hubWatermark = 0
            transaction.sync.hubRegisteredChannelIDs = []
        }
    }

    /// Takes channel titles from the hub's channel list and, with `followHubChannels`, adds the
    /// hub's channels the store does not follow yet.
    private func adoptChannelDetails(report: inout SyncReport) async throws(SyncError) {
        let answer = try await client.channels()
        let hubChannels = answer.channels
        report.requests += 1
        if answer.dropped > 0 { report.notes.append("the hub's channel list: \(answer.dropped) entries dropped (invalid channel id)") }
        try store.syncTransaction { transaction in
            for hubChannel in hubChannels {
                if var channel = transaction.library.channels[hubChannel.channelID] {
                    guard channel.title == nil, let title = hubChannel.title else { continue }
                    channel.title = title
                    transaction.change.channels.append(channel)
                } else if followHubChannels, ChannelID.isValid(hubChannel.channelID) {
                    transaction.change.channels.append(Channel(id: hubChannel.channelID, title: hubChannel.title, thumbnailURL: hubChannel.thumbnailURL))
                }
            }
        }
    }

    /// Registers every local channel in chunks; returns the ones the device had not had
    /// acknowledged before, and sets `hubChannels` to the hub's (screened) channel count. Sets
    /// `hubWasReset` when the hub inserted channels it had acknowledged; adds the channels the
    /// hub is still fetching for the first time to `pending`.
    private func register(_ channelIDs: [String], acknowledged: Set<String>, hubChannels: inout Int, pending: inout Int, report: inout SyncReport) async throws(SyncError) -> [String] {
        var newChannels: [String] = []
        for chunk in channelIDs.chunked(HubAPI.maxRegisterChannelIDs) {
            try checkCancellation()
            let fresh = chunk.filter { !acknowledged.contains($0) }
            let answer = try await client.register(Array(chunk))
            report.requests += 1
            if min(answer.inserted, chunk.count) > fresh.count { report.hubWasReset = true }
            hubChannels = answer.totalChannels
            pending += max(0, min(answer.pendingChannels ?? 0, chunk.count))
            report.channelsRegistered += fresh.count
            newChannels += fresh
        }
        progress("registered \(channelIDs.count) channels (\(newChannels.count) new)")
        return newChannels
    }

    /// How many videos are merged into the store at once: a first sync of 200,000 videos writes
    /// about forty bounded journal lines, not one per page, and never the whole run as one; with
    /// one batch merging while the next fills, at most two are held.
    static let batchVideoLimit = 5_000

    /// How long a batch collects pages before it is merged however few videos it holds. On a slow
    /// link a page takes longer than this (a 500-video page through 1 Mbit/s, about 1.5 s), so
    /// every page is merged as it is taken in, and a run cut short (kill -9) loses only the pages
    /// not yet taken in: the next run resumes from the watermark of the last one. (At 5 s a batch
    /// held three or four such pages, a cut run lost them, and its rerun moved 61 % of a full
    /// sync's bytes after a cut at half way.) On a fast link ``batchVideoLimit`` comes first.
    static let batchTimeLimit = Duration.seconds(1)

    /// Pages received but not merged yet: their videos and the watermark they prove.
    private struct Batch {
        var videos: [Video] = []
        /// The videos of ``videos`` the hub marked `backfilled`.
        var backfilledIDs: Set<String> = []
        var next: Int64?
        /// When the batch was opened.
        var opened = ContinuousClock.now

        /// Whether the batch is to be merged now: it holds ``HubSyncRun/batchVideoLimit`` videos,
        /// or it has collected pages for ``HubSyncRun/batchTimeLimit``.
        var isDue: Bool {
            videos.count >= HubSyncRun.batchVideoLimit || (next != nil && ContinuousClock.now - opened >= HubSyncRun.batchTimeLimit)
        }
    }

    /// Pages through `videos/query` from `start` until the hub has nothing more. The next page is
    /// requested while the current one is taken in, and a full batch is merged in the background
    /// while the following pages arrive (one batch at a time, so the network overlaps the store
    /// and at most two batches are held); batches are merged in order, about
    /// ``batchVideoLimit`` videos each, or what arrived in ``batchTimeLimit`` on a slow link
    /// (one transaction each, with the watermark the batch
    /// proves), and whatever was received is merged before the run stops early (cancelled, or a
    /// page that failed). Each page is checked against `budget`; the watermark advances only to
    /// the largest seq its rows prove, never to what the hub merely claims.
    private func page(channelIDs: [String]?, from start: Int64, advancesWatermark: Bool, local: Set<String>, budget: inout HubPageBudget, report: inout SyncReport) async throws(SyncError) {
        var batch = Batch()
        var merging: BackgroundMerge?
        do throws(SyncError) {
            try await page(channelIDs: channelIDs, from: start, local: local, budget: &budget, report: &report, batch: &batch, merging: &merging, advancesWatermark: advancesWatermark)
        } catch {
            try await finish(&merging, report: &report)
            try merge(&batch, advancesWatermark: advancesWatermark, report: &report)
            throw error
        }
        try await finish(&merging, report: &report)
        try merge(&batch, advancesWatermark: advancesWatermark, report: &report)
    }

    private func page(
        channelIDs: [String]?, from start: Int64, local: Set<String>, budget: inout HubPageBudget, report: inout SyncReport, batch: inout Batch,
        merging: inout BackgroundMerge?, advancesWatermark: Bool
    ) async throws(SyncError) {
        var afterSeq = start
        budget.startPass()
        try checkCancellation()
        var answer = try await client.videos(HubVideoQuery(channelIDs: channelIDs, afterSeq: afterSeq, limit: pageSize))
        while true {
            report.requests += 1
            try budget.spend(on: answer, after: afterSeq, pageSize: pageSize)
            let next = max(afterSeq, answer.seqRange?.upperBound ?? afterSeq)
            note(answer, provenUpTo: next, report: &report)
            guard answer.rowCount >= pageSize, next > afterSeq, !Task.isCancelled else {
                take(answer, upTo: next, local: local, into: &batch, report: report)
                try checkCancellation()
                return
            }
            async let following = fetch(HubVideoQuery(channelIDs: channelIDs, afterSeq: next, limit: pageSize))
            take(answer, upTo: next, local: local, into: &batch, report: report)
            if batch.isDue {
                try await finish(&merging, report: &report)
                let full = batch
                batch = Batch()
                merging = Task { [store, rules] in
                    do throws(SyncError) {
                        return .success(try Self.merge(full, into: store, rules: rules, advancesWatermark: advancesWatermark))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            let result = await following
            try checkCancellation()
            answer = try result.get()
            afterSeq = next
        }
    }

    /// A batch being merged while the next pages are fetched: how many of its videos were new,
    /// and how many it held.
    private typealias BackgroundMerge = Task<Result<MergeCounts, SyncError>, Never>

    /// What merging a batch counted: new videos from feeds, new videos from backfills, and all.
    private struct MergeCounts: Sendable {
        var added = 0
        var backfilled = 0
        var received = 0
    }

    /// Waits for the batch being merged in the background, if any, and counts it.
    private func finish(_ merging: inout BackgroundMerge?, report: inout SyncReport) async throws(SyncError) {
        guard let task = merging else { return }
        merging = nil
        count(try await task.value.get(), into: &report)
    }

    /// Adds a merged batch's counts to `report`.
    private func count(_ counts: MergeCounts, into report: inout SyncReport) {
        report.newVideos += counts.added
        report.backfilledVideos += counts.backfilled
        report.videosReceived += counts.received
    }

    /// Notes what the page's screening dropped or cleared, and a `maxSeqReturned` beyond its rows.
    private func note(_ page: ScreenedHubPage, provenUpTo proven: Int64, report: inout SyncReport) {
        var notes: [String] = []
        if let note = page.note { notes.append("hub page \(report.requests): \(note)") }
        if let claimed = page.claimedMaxSeq, claimed > proven {
            notes.append("hub page \(report.requests) claimed maxSeqReturned \(claimed) beyond its rows; the watermark stays at \(proven)")
        }
        for note in notes where report.notes.count < Self.maxNotes {
            report.notes.append(note)
            progress(note)
        }
    }

    /// The most notes one run keeps.
    static let maxNotes = 20

    /// One page of videos as a result, so it can be requested with `async let` and typed errors.
    private func fetch(_ query: HubVideoQuery) async -> Result<ScreenedHubPage, SyncError> {
        do throws(SyncError) {
            return .success(try await client.videos(query))
        } catch {
            return .failure(error)
        }
    }

    /// Adds one page's videos and the watermark `next` it proves to the batch.
    private func take(_ answer: ScreenedHubPage, upTo next: Int64, local: Set<String>, into batch: inout Batch, report: SyncReport) {
        let rows = answer.videos.filter { local.contains($0.channelID) }
        batch.videos += rows.compactMap { Self.video($0) }
        batch.backfilledIDs.formUnion(rows.filter { $0.backfilled == true }.map(\.videoID))
        batch.next = max(batch.next ?? next, next)
        progress("page \(report.requests): \(answer.rowCount) videos, up to seq \(next)")
    }

    /// Merges the batch's videos into the store together with its watermark (when the pages
    /// advance it), in one transaction, and empties it.
    private func merge(_ batch: inout Batch, advancesWatermark: Bool, report: inout SyncReport) throws(SyncError) {
        let full = batch
        batch = Batch()
        count(try Self.merge(full, into: store, rules: rules, advancesWatermark: advancesWatermark), into: &report)
    }

    /// Merges `batch` into `store` in one transaction; returns how many of its videos were new,
    /// from feeds and from backfills (the hub's `backfilled`), and how many it held.
    private static func merge(_ batch: Batch, into store: Store, rules: FeedRules, advancesWatermark: Bool) throws(SyncError) -> MergeCounts {
        guard let next = batch.next else { return MergeCounts() }
        let videos = batch.videos
        let added = try store.syncTransaction { transaction in
            transaction.applySkipRules(rules, toArriving: videos)
            transaction.change.videos = videos
            if advancesWatermark { transaction.sync.hubWatermark = max(transaction.sync.hubWatermark, next) }
            let library = transaction.library
            return Set(videos.filter { library.video($0.id) == nil }.map(\.id))
        }
        let backfilled = added.intersection(batch.backfilledIDs).count
        return MergeCounts(added: added.count - backfilled, backfilled: backfilled, received: videos.count)
    }

    private func checkCancellation() throws(SyncError) {
        if Task.isCancelled { throw .cancelled }
    }

    /// The store's form of a screened hub row; nil when its date cannot be read. An availability
    /// word this version does not know reads as available, and a scheduled start that is not
    /// believable at `now` (1970, 9999) as unknown.
    static func video(_ row: HubVideo, now: Date = Date()) -> Video? {
        guard let published = ISO8601Timestamp.parse(row.publishedAt) else { return nil }
        let title = row.title.flatMap { $0.isEmpty ? nil : $0 } ?? row.videoID
        return Video(
            id: row.videoID, channelID: row.channelID, title: title, published: published,
            duration: row.durationSeconds.map { max(0, $0) }, description: row.description, thumbnailURL: row.thumbnailURL,
            hubSeq: row.seq, isShortLink: isShortsURL(row.url),
            availability: Availability(wire: row.availability),
            scheduledStart: ScheduledStart.plausible(row.scheduledStart.flatMap { ISO8601Timestamp.parse($0) }, now: now),
            views: row.viewCount, starRatings: row.starRatingCount
        )
    }
}

/// Whether `url` is a YouTube Shorts link (`…/shorts/ID`), checked on its bytes.
func isShortsURL(_ url: String) -> Bool {
    let marker = Array("/shorts/".utf8)
    let bytes = Array(url.utf8)
    guard bytes.count >= marker.count else { return false }
    return (0...(bytes.count - marker.count)).contains { start in bytes[start..<(start + marker.count)].elementsEqual(marker) }
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
