import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubePlayer
import MeTubeSponsorBlock
import MeTubeStore
import MeTubeSync
import MeTubeTUI

/// `metube` / `metube tui`: the feed in the terminal, the default command.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the feed in the terminal (the default command).",
        discussion: """
            Keys are listed by ? inside the TUI and can be changed in the [keys] section of the config file. \
            With a hub configured ([hub] url, or source = "youtube") or an account saved by metube login, \
            the TUI syncs once its first frame is on screen, on r, every [sync] hub-interval (3600 s) and \
            status-interval (300 s), and when the service is reachable again; marks sync 2 s after the last mark. \
            I in the channels view follows your YouTube subscriptions as `metube import --youtube` does (never --prune); \
            a follows a channel from a pasted id, @handle, channel or video link, resolved as `metube channels add` resolves it. \
            Tab opens the details pane (thumbnail, facts, chapters, links, description; [tui] thumbnails = auto, symbols or off, \
            kitty and sixel are drawn as symbols); ] and [ select a chapter or link, P plays from the chapter in the tracked mpv \
            or copies the link (OSC 52).
            """
    )

    @OptionGroup var store: StoreAccess

    @Option(name: .long, help: ArgumentHelp("Append timing figures (start to first frame, key to redrawn screen) as JSON lines to this file; - for standard error.", valueName: "file"))
    var timing: String?

    func run() throws {
        let started = ContinuousClock.now
        let settings = try store.settings()
        let config: TUIConfig
        do {
            config = try TUIConfig(settings: settings)
        } catch {
            throw fail(error.description, code: ExitStatus.badInput)
        }
        let opening = try openSource()
        var options = TUIOptions(
            statusesKnown: store.statusesKnown(opening.sync),
            timingOutput: timing.map { $0 == "-" ? .standardError : .file($0) },
            startedAt: started
        )
        let downloadSettings = DownloadSettings(settings: settings)
        if let player = config.player {
            options.startPlayer = Self.playerStarter(opening.openedStore, player, sponsorBlock: SponsorBlockSettings(settings: settings),
                                                     downloads: DownloadDirectory(url: downloadSettings.directory))
        }
        if downloadSettings.inBackground { options.downloadEvents = Self.backgroundDownloads(downloadSettings, opening.openedStore) }
        options.importYouTube = Self.youTubeImporter(settings: settings, store: opening.store)
        options.resolveChannel = Self.channelLinkResolver(settings: settings)
        try connectSync(opening, sync: SyncConfiguration(settings: settings), to: &options)
        let status: Int32
        do {
            status = try runTUI(store: opening.source, config: config, options: options)
        } catch let error as TUIError {
            throw fail(error.description, code: ExitStatus.failure)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Starts tracked players for the TUI: the video from the store (a bare one when it is gone),
    /// sockets in the runtime directory; refused while the whole store is still opening.
    private static func playerStarter(
        _ openedStore: @escaping @Sendable () -> Store?, _ player: PlayerSettings, sponsorBlock: SponsorBlockSettings, downloads: DownloadDirectory
    ) -> TUIOptions.PlayerStarter {
        { videoID, startSeconds, onUpdate in
            guard let opened = openedStore() else { throw PlayerError.storeStillOpening }
            let video = opened.library().video(videoID) ?? Video(id: videoID, channelID: "", title: videoID, published: Date())
            let recorder = try PlaybackRecorder.start(video: video, localFile: downloads.copy(of: videoID)?.file, store: opened, policy: player.policy, command: player.command,
                                                      startSeconds: startSeconds, socketDirectory: PlayerSocketDirectory.url(), onUpdate: onUpdate)
            SponsorSegmentLoader(settings: sponsorBlock, store: opened)?.load(video, into: recorder.useSegments)
            return recorder
        }
    }

    /// Downloads the queue while the TUI runs: a pass now and every 30 seconds (so videos queued
    /// meanwhile follow; a video that failed for good is left to `metube download run`),
    /// reporting the copies, what the last passes left failed or waiting, and each download; ends when the TUI stops
    /// listening, which kills yt-dlp and keeps its partial file for the next start.
    private static func backgroundDownloads(_ settings: DownloadSettings, _ openedStore: @escaping @Sendable () -> Store?) -> AsyncStream<DownloadEvent> {
        AsyncStream { continuation in
            let task = Task.detached {
                let directory = DownloadDirectory(url: settings.directory)
                let downloads = QueueDownloads(settings: settings)
                continuation.yield(.copies(directory.copies().mapValues(\.bytes)))
                for (id, state) in DownloadJournal.load(from: settings.directory).entries { continuation.yield(.state(videoID: id, state)) }
                while !Task.isCancelled {
                    if let library = openedStore()?.library() {
                        if !downloads.removeExpired(library).isEmpty { continuation.yield(.copies(directory.copies().mapValues(\.bytes))) }
                        let downloader = Downloader(runner: YTDLPRun(settings: settings)) { id, state in continuation.yield(.state(videoID: id, state)) }
                        _ = await downloads.download(library, with: downloader, retryingLastingFailures: false)
                    }
                    try? await Task.sleep(for: .seconds(30))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What the TUI starts from: the store's head with the whole store opening in the background
    /// when the head can be used (the first frame then does not wait for the library's size), else
    /// the store opened here.
    private func openSource() throws -> OpeningSource {
        let options = try store.storeOptions()
        if let head = Store.readHead(at: store.directory, options: options) {
            let directory = store.directory
            let loading = LoadingStore(head: head) { try Store.open(at: directory, options: options) }
            return OpeningSource(source: loading, sync: head.sync, store: { try await loading.store() }, openedStore: { loading.openedStore })
        }
        let opened = try store.openStore()
        return OpeningSource(source: opened, sync: opened.syncSnapshot(), store: { opened }, openedStore: { opened })
    }

    /// Starts a sync engine, once the store is open, when a video source or a mark-sync account is
    /// configured, and routes its events to the TUI.
    private func connectSync(_ opening: OpeningSource, sync: SyncConfiguration, to options: inout TUIOptions) throws {
        let account = try MarkSyncAccountFiles.load()
        guard sync.hasVideoSource || account != nil else { return }
        let openStore = opening.store
        var sync = sync
        sync.feedHealthFile = FeedHealthFile.defaultURL()
        let engine = Task { [sync] () -> SyncEngine? in
            guard let opened = try? await openStore() else { return nil }
            let engine = SyncEngine(store: opened, configuration: sync, markSync: account.map { MarkSync(account: $0, store: opened) })
            await engine.start()
            return engine
        }
        let snapshot = opening.sync
        let bridge = SyncEventBridge(
            hasMarkSync: account != nil, lastSynced: snapshot.lastHubSync,
            lastMarkSynced: snapshot.lastMarkSync, markSyncOfflineSince: snapshot.markSyncOfflineSince
        )
        options.syncEvents = AsyncStream { continuation in
            let task = Task {
                if let engine = await engine.value {
                    for await event in bridge.stream(of: engine) { continuation.yield(event) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        options.requestSync = { Task { await engine.value?.sync() } }
        options.requestFullResync = { Task { await engine.value?.sync(full: true) } }
        options.syncAtStart = true
        if account != nil {
            let debouncer = Debouncer(delay: .seconds(2)) { await engine.value?.sync(.markSync) }
            options.markDidChange = { Task { await debouncer.poke() } }
        }
        options.videoSourceName = sync.source.displayName
        options.services = [
            .videoSource: sync.hasVideoSource ? .idle(lastSynced: snapshot.lastHubSync) : .notConfigured,
            .markSyncService: account == nil ? .notConfigured : snapshot.markSyncOfflineSince.map { .offline(.init(since: $0)) } ?? .idle(lastSynced: snapshot.lastMarkSync),
        ]
    }
}

/// The TUI's library source, the sync state to start from, and the store once it is open.
private struct OpeningSource {
    var source: any LibrarySource
    var sync: SyncSnapshot
    var store: @Sendable () async throws -> Store
    /// The store if it is open already.
    var openedStore: @Sendable () -> Store?
}
