import ArgumentParser
import Foundation
import MeTubeCore
import MeTubePlayer
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
            status-interval (300 s), and when the service is reachable again; marks sync 2 s after the last mark.
            """
    )

    @OptionGroup var store: StoreAccess

    @Option(name: .long, help: ArgumentHelp("Append timing figures (start to first frame, key to redrawn screen) as JSON lines to this file; - for standard error.", valueName: "file"))
    var timing: String?

    func run() throws {
        let started = ContinuousClock.now
        let opened = try store.openStore()
        let settings = try store.settings()
        let config: TUIConfig
        do {
            config = try TUIConfig(settings: settings)
        } catch {
            throw fail(error.description, code: ExitStatus.badInput)
        }
        var options = TUIOptions(
            statusesKnown: try store.statusesKnown(opened),
            timingOutput: timing.map { $0 == "-" ? .standardError : .file($0) },
            startedAt: started
        )
        if let player = config.player { options.startPlayer = Self.playerStarter(opened, player) }
        try connectSync(opened, sync: SyncConfiguration(settings: settings), to: &options)
        let status: Int32
        do {
            status = try runTUI(store: opened, config: config, options: options)
        } catch let error as TUIError {
            throw fail(error.description, code: ExitStatus.failure)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Starts tracked players for the TUI: the video from the store (a bare one when it is gone),
    /// sockets in the runtime directory.
    private static func playerStarter(_ opened: Store, _ player: PlayerSettings) -> TUIOptions.PlayerStarter {
        { videoID, startSeconds, onUpdate in
            let video = opened.library().video(videoID) ?? Video(id: videoID, channelID: "", title: videoID, published: Date())
            return try PlaybackRecorder.start(video: video, store: opened, policy: player.policy, command: player.command,
                                              startSeconds: startSeconds, socketDirectory: PlayerSocketDirectory.url(), onUpdate: onUpdate)
        }
    }

    /// Starts a sync engine when a video source or a status account is configured, and routes its
    /// events to the TUI.
    private func connectSync(_ opened: Store, sync: SyncConfiguration, to options: inout TUIOptions) throws {
        let account = try StatusAccountFiles.load()
        let engine = SyncEngine(store: opened, configuration: sync, status: account.map { StatusSync(account: $0, store: opened) })
        guard engine.hasWork else { return }
        let snapshot = opened.syncSnapshot()
        options.syncEvents = SyncEventBridge(
            hasStatusSync: account != nil, lastSynced: snapshot.lastHubSync,
            lastStatusSynced: snapshot.lastStatusSync, statusOfflineSince: snapshot.statusOfflineSince
        ).stream(of: engine)
        options.requestSync = { Task { await engine.sync() } }
        options.requestFullResync = { Task { await engine.sync(full: true) } }
        options.syncAtStart = true
        Task { await engine.start() }
        if account != nil {
            let debouncer = Debouncer(delay: .seconds(2)) { await engine.sync(.status) }
            options.markDidChange = { Task { await debouncer.poke() } }
        }
        options.videoSourceName = sync.source.displayName
        options.services = [
            .hub: sync.hasVideoSource ? .idle(lastSynced: snapshot.lastHubSync) : .notConfigured,
            .status: account == nil ? .notConfigured : snapshot.statusOfflineSince.map { .offline(since: $0) } ?? .idle(lastSynced: snapshot.lastStatusSync),
        ]
    }
}
