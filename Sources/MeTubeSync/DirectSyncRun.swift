import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
import MeTubeTransfer
import MeTubeYouTube

/// One direct sync: fetch every channel's feed with bounded concurrency and conditional GET, and
/// merge the videos and each channel's fetch result into the store in bounded batches (one write
/// per ``batchEntryLimit`` entries, and one at the end). One failing channel never fails the
/// others; it is reported with its reason.
struct DirectSyncRun {
    let store: Store
    var client: DirectFeedClient
    let concurrency: Int
    /// The rules whose `skip` marks the new videos.
    var rules = FeedRules()
    let progress: @Sendable (String) -> Void
    /// The backoff, rate and outage state the runs of one source share.
    let feedGuard: DirectFeedGuard
    /// How the run's fetches are spread over time; nil: all at once (within the global rate).
    var pace: SyncPace?
    /// The clock the pace waits on.
    var clock: FeedClock = .continuous
    /// The longest the whole run may take; a fetch still running then fails as its channel's
    /// error, and the others' results are kept.
    var runLimit: Duration = .seconds(900)
    /// Backfills and lengths beyond the feeds; nil: the feeds alone.
    var catalog: DirectCatalog?

    /// How many fetches in a row of a spread run may fail before the rest go at once, so the
    /// run finds out quickly whether the source is down (and stops), instead of failing channel
    /// by channel over the whole interval. (The outage detector's window is widened to the
    /// spread for that run.)
    static let failuresBeforeHurrying = 5

    /// One channel's fetch: its outcome or its error, the new uploads its Shorts feed listed, and
    /// its catalog call.
    private struct Fetch: Sendable {
        let channelID: String
        let result: Result<DirectFeedClient.Outcome, SyncError>
        var shortIDs: Set<String> = []
        var catalog: CatalogCall?
    }

    /// What a channel's catalog call asked and answered.
    private struct CatalogCall: Sendable {
        /// What it asked; nil when what an earlier run owed no longer applies.
        var need: CatalogNeed?
        /// The answer; nil when the call failed or was put off (owed to the next run).
        var answer: CatalogAnswer?

        /// Whether nothing is owed once the fetch is stored.
        var isSettled: Bool { need == nil || answer != nil }
    }

    /// One channel's fetch, its Shorts check and its catalog call (`owedLengthless`: its videos
    /// without a length when an earlier run owes it a call).
    private func fetch(
        _ channelID: String, known: ChannelFetchResult?, library: Library, turn: Duration? = nil, breaker: CatalogRunBreaker = CatalogRunBreaker(),
        owedLengthless: [String]
    ) async -> Fetch {
        if let pace, let turn {
            await pace.wait(until: turn, on: clock)
            if Task.isCancelled { return Fetch(channelID: channelID, result: .failure(.cancelled)) }
        }
        do {
            try await feedGuard.acquireSlot()
        } catch {
            return Fetch(channelID: channelID, result: .failure(.cancelled))
        }
        do {
            let outcome = try await client.fetch(channelID: channelID, etag: known?.etag, lastModified: known?.lastModified)
            var fetch = Fetch(channelID: channelID, result: .success(outcome))
            var feed: AtomFeed?
            if case .feed(let fetched, _, _) = outcome {
                feed = fetched
                fetch.shortIDs = await shortIDs(fetched, of: channelID, library: library)
            }
            fetch.catalog = await catalogCall(
                channelID, feed: feed, fetchedBefore: known?.lastSuccess != nil, library: library, breaker: breaker, owedLengthless: owedLengthless)
            return fetch
        } catch {
            return Fetch(channelID: channelID, result: .failure(error))
        }
    }

    /// The catalog call `channelID` needs after its feed answered (``DirectCatalog/need(for:of:library:fetchedBefore:owed:)``),
    /// at a slot of the feeds' rate, unless `breaker` stopped the run's calls or the run is past
    /// its deadline; nil when it needs none.
    private func catalogCall(
        _ channelID: String, feed: AtomFeed?, fetchedBefore: Bool, library: Library, breaker: CatalogRunBreaker, owedLengthless: [String]
    ) async -> CatalogCall? {
        guard let catalog else { return nil }
        let owed = await feedGuard.owedCatalog(channelID)
        guard let need = catalog.need(for: feed, of: channelID, library: library, fetchedBefore: fetchedBefore, owed: owed) else {
            return owed == nil ? nil : CatalogCall(need: nil)
        }
        let beforeDeadline = client.runDeadline.map { ContinuousClock.now < $0 } ?? true
        guard beforeDeadline, await breaker.allows() else { return CatalogCall(need: need) }
        do {
            try await feedGuard.acquireSlot()
        } catch {
            return CatalogCall(need: need)
        }
        do throws(YouTubeError) {
            let lengthless = catalog.lengthless(in: feed, of: channelID, library: library, owed: owedLengthless)
            return CatalogCall(need: need, answer: try await catalog.answer(for: need, of: channelID, lengthless: lengthless, library: library))
        } catch {
            if error != .cancelled { await breaker.failed(error) }
            return CatalogCall(need: need)
        }
    }

    /// The uploads of `feed` the channel's Shorts feed lists (``ShortsFeed``), asked only when
    /// the feed brought one `library` does not hold that it links as an ordinary video. The
    /// request waits for a slot of the same rate; its failure leaves the links to decide, and is
    /// not the channel's.
    private func shortIDs(_ feed: AtomFeed, of channelID: String, library: Library) async -> Set<String> {
        guard client.hasShortsFeeds, ShortsFeed.uploadsToCheck(in: feed, channelID: channelID).contains(where: { library.video($0) == nil }) else {
            return []
        }
        do {
            try await feedGuard.acquireSlot()
            guard let shorts = try await client.fetchShorts(channelID: channelID) else { return [] }
            return ShortsFeed.shortIDs(in: shorts, channelID: channelID)
        } catch {
            return []
        }
    }

    /// The run, between taking up what earlier runs kept about failing feeds and keeping it for
    /// the next ones (a file that could not be read or written is a note).
    func run() async throws(SyncError) -> SyncReport {
        var run = self
        run.client.runDeadline = ContinuousClock.now + runLimit + (pace?.spread ?? .zero)
        let restoreWarning = await feedGuard.restoreSaved()
        let result: Result<SyncReport, SyncError>
        do throws(SyncError) {
            result = .success(try await run.fetchAll())
        } catch {
            result = .failure(error)
        }
        let saveWarning = await feedGuard.save()
        var report = try result.get()
        report.notes = [restoreWarning].compactMap { $0 } + report.notes + [saveWarning].compactMap { $0 }
        return report
    }

    /// How many feed entries are merged into the store at once: a sync of thousands of full feeds
    /// holds at most about this many parsed entries (plus the fetches in flight) and writes one
    /// bounded journal line per batch, never the whole run as one.
    static let batchEntryLimit = 5_000

    /// What merging one batch of fetches into the store gave.
    private struct Merged: Sendable {
        var added = 0
        var received = 0
        var invalid = 0
        var backfilled = 0
    }

    private func fetchAll() async throws(SyncError) -> SyncReport {
        var report = SyncReport(source: .direct)
        let previous = store.syncSnapshot().channelFetches
        let library = store.library()
        var channelIDs = library.channels.keys.sorted()
        let now = Date()
        var failures: [String: SyncError] = [:]
        var answered = false
        var fetched = 0
        var batch: [Fetch] = []
        let owedLengthless = catalog?.dataAPI == nil ? [:] : library.lengthlessVideoIDs(of: await feedGuard.owedCatalogChannels, limit: DirectCatalog.lengthWindow)
        let breaker = CatalogRunBreaker()
        switch await feedGuard.plan(channelIDs) {
        case .probe(let channelID, let outage):
            let probe = await fetch(channelID, known: previous[channelID], library: library, breaker: breaker, owedLengthless: owedLengthless[channelID] ?? [])
            if case .failure(.cancelled) = probe.result {
                report.cancelled = true
                return report
            }
            await oweUnsettledCatalog(of: probe)
            guard await feedGuard.recordProbe(channelID, error: probe.result.error) else {
                report.requests = 1
                report.sourceOutage = outage
                report.failedChannels[channelID] = probe.result.error
                return report
            }
            channelIDs.removeAll { $0 == channelID }
            (answered, fetched, batch) = (true, 1, [probe])
        case .fetch(let due, let backingOff, let until):
            channelIDs = due
            report.backingOff = backingOff.count
            report.backingOffUntil = until
            failures = backingOff
        }
        let planned = fetched + channelIDs.count
        var merged = Merged()
        var batchEntries = 0
        var mergeError: SyncError?
        let start = clock.now()
        let count = channelIDs.count
        var failuresInARow = 0
        await feedGuard.spread(count, over: pace?.spread)
        await withTaskGroup(of: Fetch.self) { group in
            var pending = Array(channelIDs.enumerated())[...]
            func startNext() {
                guard let (index, id) = pending.popFirst() else { return }
                let known = previous[id]
                let turn = pace?.turn(index, of: count, from: start)
                let lengthless = owedLengthless[id] ?? []
                group.addTask { await fetch(id, known: known, library: library, turn: turn, breaker: breaker, owedLengthless: lengthless) }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            while let fetch = await group.next() {
                if case .failure(.cancelled) = fetch.result { continue }
                fetched += 1
                switch fetch.result {
                case .success(let outcome):
                    answered = true
                    failuresInARow = 0
                    if case .feed(let feed, _, _) = outcome { batchEntries += feed.entries.count }
                    batchEntries += fetch.catalog?.answer?.uploads.videos.count ?? 0
                case .failure(let error):
                    failures[fetch.channelID] = error
                    failuresInARow += 1
                    if failuresInARow >= Self.failuresBeforeHurrying { pace?.hurry() }
                }
                if report.sourceOutage == nil, let outage = await feedGuard.record(fetch.channelID, error: fetch.result.error) {
                    report.sourceOutage = outage
                    report.outageBegan = true
                }
                await oweUnsettledCatalog(of: fetch)
                batch.append(fetch)
                if fetched % 50 == 0 { progress("fetched \(fetched) of \(planned) feeds") }
                if batchEntries >= Self.batchEntryLimit, mergeError == nil {
                    do throws(SyncError) {
                        try merge(batch, at: now, into: &merged, finishing: nil)
                        await settleCatalog(of: batch)
                    } catch {
                        mergeError = error
                        group.cancelAll()
                    }
                    batch.removeAll(keepingCapacity: true)
                    batchEntries = 0
                }
                if !Task.isCancelled, mergeError == nil, report.sourceOutage == nil { startNext() }
            }
        }
        if let mergeError { throw mergeError }
        let finished = !Task.isCancelled && report.sourceOutage == nil && (answered || channelIDs.isEmpty)
        try merge(batch, at: now, into: &merged, finishing: finished)
        await settleCatalog(of: batch)
        report.cancelled = report.sourceOutage == nil && fetched < planned
        report.outageEnded = await feedGuard.takeEndedOutage()
        report.requests = fetched
        if merged.invalid > 0 { report.notes.append("\(merged.invalid) feed entries dropped (invalid video id)") }
        if let note = await breaker.note() { report.notes.append(note) }
        report.newVideos = merged.added
        report.backfilledVideos = merged.backfilled
        report.videosReceived = merged.received
        report.failedChannels = failures
        return report
    }

    /// Keeps what the catalog call of `fetch` asked for owed to its channel, when it failed or
    /// was put off, so a later run asks again.
    private func oweUnsettledCatalog(of fetch: Fetch) async {
        if let call = fetch.catalog, !call.isSettled, let need = call.need { await feedGuard.oweCatalog(fetch.channelID, need) }
    }

    /// Forgets what was owed to the channels of `fetches` whose catalog answers are now stored.
    private func settleCatalog(of fetches: [Fetch]) async {
        let settled = fetches.filter { $0.catalog?.isSettled == true }.map(\.channelID)
        if !settled.isEmpty { await feedGuard.settleCatalog(settled) }
    }

    /// Merges one batch of fetches (their videos and each channel's fetch result) into the store
    /// as one journal line. `finishing` is set on the run's last batch: whether the run reached
    /// the source, which stamps the sync time.
    private func merge(_ fetches: [Fetch], at now: Date, into merged: inout Merged, finishing: Bool?) throws(SyncError) {
        guard !fetches.isEmpty || finishing == true else { return }
        let result = try store.syncTransaction { transaction -> Merged in
            var result = Merged()
            var videos: [Video] = []
            var lengthened: [Video] = []
            var newIDs: Set<String> = []
            let library = transaction.library
            for fetch in fetches {
                var state = transaction.sync.channelFetches[fetch.channelID] ?? ChannelFetchResult()
                var fedIDs: Set<String> = []
                switch fetch.result {
                case .success(.notModified):
                    state.lastSuccess = now
                    state.failingSince = nil
                    state.lastError = nil
                case .success(.feed(let feed, let etag, let lastModified)):
                    state = ChannelFetchResult(lastSuccess: now, etag: etag, lastModified: lastModified)
                    let entries = feed.entries.filter { library.channels[$0.channelID] != nil }
                    let usable = entries.filter { PeerInput.isVideoID($0.videoID) }
                    result.invalid += entries.count - usable.count
                    let lengths = fetch.catalog?.answer?.lengths ?? [:]
                    let arriving = usable.map { entry in
                        var video = entry.video(fallbackDate: now).marked(shorts: fetch.shortIDs)
                        video.title = PeerInput.title(video.title)
                        video.duration = library.video(entry.videoID)?.duration ?? lengths[entry.videoID]
                        return video
                    }
                    newIDs.formUnion(arriving.filter { library.video($0.id) == nil }.map(\.id))
                    videos += arriving
                    fedIDs = Set(usable.map(\.videoID))
                    if let title = feed.channelTitle.map(PeerInput.title), var channel = library.channels[fetch.channelID], channel.title != title {
                        channel.title = title
                        transaction.change.channels.append(channel)
                    }
                case .failure(let error):
                    state.failingSince = state.failingSince ?? now
                    state.lastError = error.description
                }
                transaction.sync.channelFetches[fetch.channelID] = state
                if let lengths = fetch.catalog?.answer?.lengths {
                    lengthened += library.lengthening(of: fetch.channelID, by: lengths, besides: fedIDs)
                }
                if fetch.catalog?.need == .backfill, let uploads = fetch.catalog?.answer?.uploads, let catalog, library.channels[fetch.channelID] != nil {
                    let backfill = uploads.backfill(catalog.backfill, besides: videos, in: library, at: now)
                    result.backfilled += backfill.count
                    videos += backfill
                }
            }
            result.added = newIDs.count
            result.received = videos.count
            transaction.applySkipRules(rules, toArriving: videos)
            transaction.change.videos = videos + lengthened
            if finishing == true { transaction.sync.lastHubSync = now }
            return result
        }
        merged.added += result.added
        merged.received += result.received
        merged.invalid += result.invalid
        merged.backfilled += result.backfilled
    }
}

extension Result {
    /// The error of a failure; nil for a success.
    fileprivate var error: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
