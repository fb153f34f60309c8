import Foundation
import MeTubeCore
import MeTubePlayer
import MeTubeThumbnails

/// The event loop: reads keys with a timeout, drains events between keys, polls the store for
/// changes made by other processes, and redraws. Runs on one thread with every curses call.
struct TUILoop<Source: LibrarySource> {
    private let source: Source
    private let terminal: CursesScreen
    private let options: TUIOptions
    private let opener: VideoOpener
    private let inbox = EventInbox()
    private let compaction = CompactionFlag()
    private let searchIndexBuilder = SearchIndexBuilder()
    private let detailsLoader: DetailsLoader
    private var searchIndexRequested: Int?
    private var pixelOverlay = PixelOverlay()
    /// Whether curses repaints the whole screen on the next draw (after a resize).
    private var repaintsAll = false
    private var model: ScreenModel
    private var clipboard: String?
    /// The lookup of the channel link being followed, while it runs.
    private var channelResolution: Task<Void, Never>?
    /// Tracked players now running, by video id.
    private var players: [String: PlaybackRecorder] = [:]
    /// Timing figures as JSON lines, when `options.timingOutput` asks for them.
    private(set) var timingLines: [String] = []

    init(source: Source, terminal: CursesScreen, config: TUIConfig, options: TUIOptions, unicode: Bool) {
        self.source = source
        self.terminal = terminal
        self.options = options
        opener = VideoOpener(command: config.openCommand)
        let thumbnailCache = config.thumbnails == .off ? nil : ThumbnailCache(directory: options.thumbnailDirectory, byteLimit: config.thumbnailCacheBytes)
        // Pictures without colour (`NO_COLOR`) are symbols only.
        let pixelMode = terminal.pictureColors == .none ? nil : PixelMode(rawValue: config.thumbnails.rawValue)
        detailsLoader = DetailsLoader(inbox: inbox, cache: thumbnailCache, colors: terminal.pictureColors, unicode: unicode,
                                      pixels: pixelMode.map { PixelRenderer(mode: $0, terminal: STDOUT_FILENO) })
        model = ScreenModel(library: source.library(), size: terminal.size, config: config, unicode: unicode, statusesKnown: options.statusesKnown)
        model.videoSourceName = options.videoSourceName
        model.loadingVideoCount = source.loadingVideoCount
        for (service, state) in options.services { send(.sync(.service(service, state))) }
        send(.channelFetchesChanged(source.channelFetches()))
        showNotices()
    }

    /// Runs until the user quits or a termination signal arrives; returns the exit status.
    mutating func run(signals: borrowing TerminalGuard) -> Int32 {
        terminal.draw(ScreenRenderer.render(model))
        record(["event": "first-frame", "ms": (ContinuousClock.now - options.startedAt).milliseconds, "videos": model.library.videos.count])
        updateSearchIndex()
        let syncTask = listen(to: options.syncEvents) { .sync($0) }
        let downloadTask = listen(to: options.downloadEvents) { .download($0) }
        if options.syncAtStart { options.requestSync?() }
        defer {
            syncTask?.cancel()
            downloadTask?.cancel()
            channelResolution?.cancel()
            if let clear = pixelOverlay.shown?.picture.clearSequence { FileHandle.standardOutput.write(Data(clear.utf8)) }
        }
        var lastRefresh = ContinuousClock.now
        while true {
            if let signal = signals.signal { return 128 + signal }
            var changed = false
            var keyName: String?
            let input = terminal.read(waiting: !model.isCountingMatches && !model.isScanningView)
            let keyStart = ContinuousClock.now
            switch input {
            case .key(let key)?:
                perform(model.handle(key))
                keyName = key.name
                changed = true
            case .resize?:
                send(.resized(terminal.size))
                terminal.invalidate()
                repaintsAll = true
                changed = true
            case .hangup?:
                stopPlayers()
                return 128 + SIGHUP
            case nil:
                // No key waiting: compute the next rows of a view, or count those of a search.
                if model.isScanningView {
                    changed = model.continueViewScan()
                } else if model.isCountingMatches {
                    changed = model.continueSearch()
                }
            }
            if model.wantsQuit {
                stopPlayers()
                record((["event": "quit", "videos": model.library.videos.count] as [String: Any]).merging(Self.memoryFields()) { $1 })
                return 0
            }
            for event in inbox.drain() {
                receive(event)
                changed = true
            }
            if ContinuousClock.now - lastRefresh >= options.refreshInterval {
                lastRefresh = ContinuousClock.now
                refreshFromStore()
                send(.tick(Date()))
                changed = true
            }
            if changed {
                for event in detailsLoader.update(for: model, source: source) { receive(event) }
                redraw()
            }
            updateSearchIndex()
            if let keyName {
                record(["event": "key", "key": keyName, "ms": (ContinuousClock.now - keyStart).milliseconds, "videos": model.library.videos.count])
            }
        }
    }

    /// Installs a search index built in the background, and starts one when the library changed.
    private mutating func updateSearchIndex() {
        if let built = searchIndexBuilder.take() { model.install(built.index, generation: built.generation) }
        if model.needsSearchIndex, searchIndexRequested != model.libraryGeneration {
            searchIndexRequested = model.libraryGeneration
            searchIndexBuilder.build(model.library, generation: model.libraryGeneration)
        }
    }

    private mutating func redraw() {
        let grid = ScreenRenderer.render(model)
        let pixels = pixelOverlay.frame(showing: PixelOverlay.placement(in: model, grid: grid), repainted: repaintsAll)
        repaintsAll = false
        if let rows = pixels.repaintRows { terminal.repaint(rows: rows) }
        terminal.draw(grid)
        if !pixels.output.isEmpty { FileHandle.standardOutput.write(Data(pixels.output.utf8)) }
        if let text = clipboard {
            clipboard = nil
            let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
            FileHandle.standardOutput.write(Data(sequence.utf8))
        }
    }

    /// Takes in an event from the inbox or the details loader: a player's end or mark syncs, and a
    /// store change is read back, before the model sees it.
    private mutating func receive(_ event: ModelEvent) {
        if case .playback(let update) = event, update.outcome != nil || update.mark != nil {
            // A position syncs once playback stops (and a watched mark at once), not every save.
            if update.outcome != nil { players[update.videoID] = nil }
            options.markDidChange?()
        }
        if case .sync(.storeChanged) = event {
            reloadFromStore()
        } else {
            if case .youTubeImport(.finished) = event { reloadFromStore() }
            send(event)
        }
    }

    /// Gives the model `event` and runs every effect it asks for: the one way an event reaches the
    /// model, so no effect is dropped.
    private mutating func send(_ event: ModelEvent) {
        perform(model.apply(event))
    }

    private mutating func refreshFromStore() {
        do {
            if try source.refresh() { reloadFromStore() }
            compactInBackgroundIfNeeded()
        } catch {
            let text = "cannot read the store: \(error)"
            if model.message?.text != text { send(.sync(.message(text, isError: true))) }
        }
        showNotices()
    }

    /// Gives the model the store's current library and channel fetch results.
    private mutating func reloadFromStore() {
        if model.loadingVideoCount != nil, source.loadingVideoCount == nil {
            send(.libraryLoaded(source.library()))
            record((["event": "library-loaded", "ms": (ContinuousClock.now - options.startedAt).milliseconds, "videos": model.library.videos.count] as [String: Any])
                .merging(Self.memoryFields()) { $1 })
        } else {
            send(.libraryChanged(source.library()))
        }
        send(.channelFetchesChanged(source.channelFetches()))
    }

    /// Folds a grown journal into new snapshots on a thread of its own, so no key waits for it;
    /// a failure (e.g. a full disk) is shown and changes nothing.
    private func compactInBackgroundIfNeeded() {
        guard source.needsCompaction, compaction.begin() else { return }
        let (source, inbox, compaction) = (source, inbox, compaction)
        Thread.detachNewThread {
            defer { compaction.end() }
            do {
                try source.compact()
            } catch {
                inbox.post(.sync(.message("could not compact the store: \(error)", isError: true)))
            }
        }
    }

    private mutating func showNotices() {
        let notices = source.takeNotices()
        guard !notices.isEmpty else { return }
        send(.sync(.message(notices.joined(separator: "; "), isError: true)))
    }

    private mutating func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .mark(let videoID, let status):
                do {
                    let mark = try source.mark(videoID, as: status)
                    send(.marked(mark))
                    options.markDidChange?()
                } catch {
                    send(.markFailed(videoID: videoID, message: "\(error)"))
                }
            case .markBatch(let batch):
                do {
                    _ = try source.mark(batch)
                    options.markDidChange?()
                } catch {
                    send(.batchMarkFailed(message: "\(error)"))
                }
                reloadFromStore()
            case .open(let videoID, let url, let markOnSuccess):
                let inbox = inbox
                opener.open(url) { success, detail in
                    if markOnSuccess {
                        inbox.post(.playerExited(videoID: videoID, success: success, detail: detail))
                    } else if !success {
                        inbox.post(.sync(.message(detail, isError: true)))
                    }
                }
            case .queue(let edit):
                do {
                    send(.queued(try source.editQueue(edit)))
                } catch {
                    send(.sync(.message("could not change the queue: \(error)", isError: true)))
                }
            case .play(let videoID, let startSeconds):
                startPlayer(videoID, at: startSeconds)
            case .copy(let text):
                clipboard = text
            case .setTags(let channelID, let tags):
                do {
                    guard try source.setTags(tags, of: channelID) else {
                        send(.sync(.message("the channel is no longer followed; its tags were not changed", isError: true)))
                        continue
                    }
                    send(.libraryChanged(source.library()))
                    send(.sync(.message(tags.isEmpty ? "tags removed" : "tagged: \(tags.joined(separator: ", "))", isError: false)))
                    options.markDidChange?()
                } catch {
                    send(.sync(.message("cannot save the tags: \(error)", isError: true)))
                }
            case .follow(let channelID):
                follow(channelID)
            case .resolveChannel(let lookup):
                resolveChannel(lookup)
            case .cancelChannelResolution:
                channelResolution?.cancel()
                channelResolution = nil
            case .syncNow:
                options.requestSync?()
            case .fullResync:
                options.requestFullResync?()
            case .importYouTube:
                guard let start = options.importYouTube else {
                    send(.youTubeImport(.failed("importing from YouTube is not available here")))
                    continue
                }
                let inbox = inbox
                start { progress in inbox.post(.youTubeImport(progress)) }
            case .quit:
                break
            }
        }
    }

    /// Follows `channelID` in the store and shows the channel, which syncs to the other devices.
    private mutating func follow(_ channelID: String) {
        do {
            let added = try source.follow(channelID)
            reloadFromStore()
            if added { options.markDidChange?() }
            send(.followed(channelID: channelID, added: added))
        } catch {
            send(.sync(.message("cannot follow \(channelID): \(error); nothing was followed", isError: true)))
        }
    }

    /// Resolves the lookup's link off the key path; the answer arrives through the inbox.
    private mutating func resolveChannel(_ lookup: ChannelLookup) {
        guard let resolve = options.resolveChannel else {
            send(.channelNotResolved(lookup, reason: "resolving links is not available here"))
            return
        }
        let inbox = inbox
        channelResolution?.cancel()
        channelResolution = Task.detached {
            do {
                inbox.post(.channelResolved(lookup, channelID: try await resolve(lookup.link)))
            } catch {
                inbox.post(.channelNotResolved(lookup, reason: "\(error)"))
            }
        }
    }

    /// Starts a tracked player whose reports arrive through the inbox, so keys keep working.
    private mutating func startPlayer(_ videoID: String, at startSeconds: Double?) {
        guard let start = options.startPlayer else { return }
        let inbox = inbox
        do {
            players[videoID] = try start(videoID, startSeconds) { update in inbox.post(.playback(update)) }
        } catch {
            send(.playerFailed(videoID: videoID, message: "\(error)"))
        }
    }

    /// Quitting the TUI stops its players, each saving where it was (waiting a few seconds at most).
    private mutating func stopPlayers() {
        for recorder in players.values where recorder.result == nil { recorder.stop(waitingAtMost: 3) }
        players.removeAll()
    }

    /// Posts each of `events` to the inbox as `message` of it, until the stream ends.
    private func listen<Event: Sendable>(to events: AsyncStream<Event>?, as message: @escaping @Sendable (Event) -> ModelEvent) -> Task<Void, Never>? {
        guard let events else { return nil }
        let inbox = inbox
        return Task.detached {
            for await event in events { inbox.post(message(event)) }
        }
    }

    /// This process's resident memory now and at its peak (`rssMiB`, `peakMiB`, from
    /// `/proc/self/status`), for the timing lines; empty where that file does not exist.
    private static func memoryFields() -> [String: Any] {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return [:] }
        var fields: [String: Any] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split { $0 == " " || $0 == "\t" }
            guard parts.count >= 2, let kib = Double(parts[1]) else { continue }
            if parts[0] == "VmRSS:" { fields["rssMiB"] = kib / 1024 }
            if parts[0] == "VmHWM:" { fields["peakMiB"] = kib / 1024 }
        }
        return fields
    }

    private mutating func record(_ fields: [String: Any]) {
        guard options.timingOutput != nil,
              let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
        timingLines.append(String(decoding: data, as: UTF8.self))
    }
}
