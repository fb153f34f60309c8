import Foundation
import ArgumentParser
import MeTubeCore
import MeTubeFeeds
import MeTubeSync

/// `metube sync`: one headless sync of the store's videos from the hub or straight from YouTube.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Fetch new videos from the hub (or directly from YouTube) into the store.",
        discussion: """
            Reads [hub] url and source ("hub" or "youtube") from the config file. Progress goes to \
            stderr when it is a terminal. Exit codes: 0 complete, 2 partial (some channels failed \
            or the run was cancelled), 1 failed (including a peer that broke a limit: a stalled or \
            dripping answer, endless or repeating pages), 65 bad configuration. Safe to run from \
            cron while the TUI is open. `--full` forgets where the syncs stopped and fetches \
            everything again. In direct mode a failing channel backs off (5 min, doubling up to \
            6 h, honouring Retry-After), and when every channel fails the run probes one feed \
            instead; both are kept in $XDG_STATE_HOME/metube/feed-health.json, so the next run \
            skips channels still backing off and says how many and until when. `--force` \
            fetches every channel anyway.
            """
    )

    @Flag(help: "Sync from the hub (the default unless [hub] source = \"youtube\").")
    var hub = false

    @Flag(help: "Fetch each channel's feed directly from YouTube; no hub.")
    var direct = false

    @Option(help: "The hub URL, overriding [hub] url.")
    var hubURL: String?

    @Flag(help: ArgumentHelp(
        "Force a full resync: forget the hub watermark and the status sync token, then fetch and merge everything again.",
        discussion: "Nothing is duplicated; pending and conflicting marks are kept and pushed. The first step when sync appears stuck."))
    var full = false

    @Flag(help: ArgumentHelp(
        "Direct mode: fetch every channel now, ignoring the backoff and outage kept from earlier runs.",
        discussion: "The state is kept again after the run."))
    var force = false

    @Flag(help: "Print the result as one JSON object on stdout.")
    var json = false

    @OptionGroup var storeAccess: StoreAccess

    func validate() throws {
        guard !(hub && direct) else { throw ValidationError("--hub and --direct exclude each other") }
    }

    func run() async throws {
        var flags: [(flag: String, name: SettingName, value: String)] = []
        if hub { flags.append(("--hub", .source, "hub")) }
        if direct { flags.append(("--direct", .source, "youtube")) }
        if let hubURL { flags.append(("--hub-url", .hubURL, hubURL)) }
        var configuration = SyncConfiguration(settings: try storeAccess.settings(flags: flags))
        configuration.feedHealthFile = FeedHealthFile.defaultURL()
        configuration.ignoresSavedBackoff = force
        let opened = try storeAccess.openStore()
        let account = try MarkSyncAccountFiles.load()
        let engine = SyncEngine(store: opened, configuration: configuration, markSync: account.map { MarkSync(account: $0, store: opened) })
        let showProgress = isatty(STDERR_FILENO) == 1
        let printer = Task {
            for await event in engine.events {
                guard showProgress, case .progress(_, let message) = event else { continue }
                FileHandle.standardError.write(Data("\(DisplayText.line(message))\n".utf8))
            }
        }
        if full, showProgress { FileHandle.standardError.write(Data("full resync: forgetting the sync positions and fetching everything\n".utf8)) }
        let report = await engine.sync(full: full)
        await engine.shutdown()
        await printer.value
        if opened.needsCompaction {
            do {
                try opened.compact()
            } catch {
                printError("note: the store was not compacted: \(error)")
            }
        }
        Self.log(report)
        if json {
            try printJSON(report)
        } else {
            print(MeTubeLog.file.redacted(Self.summary(report)))
        }
        let everyChannelFailed = report.includesVideos && !report.cancelled && !report.sourceAnswered
        if report.error != nil || report.markSyncError != nil || everyChannelFailed { throw ExitCode(ExitStatus.failure) }
        if !report.isComplete { throw ExitCode(ExitStatus.partial) }
    }

    /// Writes the run's errors, notes and failing channels to the log file (which redacts them),
    /// so that a failed run from cron can be read afterwards.
    static func log(_ report: SyncReport) {
        let logger = MeTubeLog.command
        if let error = report.error { logger.error("sync error: \(error)") }
        if let error = report.markSyncError { logger.error("status sync error: \(error)") }
        for note in report.notes { logger.notice("sync note: \(note)") }
        if let outage = report.sourceOutage {
            logger.error("\(outage.message())")
        } else {
            for (channel, reason) in report.failedChannels.sorted(by: { $0.key < $1.key }) {
                logger.warning("channel \(channel) failed: \(reason)")
            }
        }
        if let ended = report.outageEnded { logger.notice("\(ended.endMessage())") }
    }

    static func summary(_ report: SyncReport) -> String {
        var text = report.includesVideos
            ? "\(report.source.displayName) sync: \(report.newVideos) new videos (\(report.backfilledVideos > 0 ? "\(report.backfilledVideos) backfilled, " : "")\(report.videosReceived) received, \(report.requests) requests) in \(String(format: "%.2f", report.seconds)) s"
            : "no video source configured; marks only, in \(String(format: "%.2f", report.seconds)) s"
        if report.hubWasReset { text += "; the hub had lost this device's channels, registered again" }
        if report.cancelled { text += "; cancelled" }
        if let outage = report.sourceOutage {
            text += "\n" + outage.message()
        } else if !report.failedChannels.isEmpty {
            text += "; \(report.failedChannels.count) of \(report.requests + report.backingOff) channels failing"
            if report.backingOff > 0 {
                text += " (\(report.backingOff) backing off"
                if let until = report.backingOffUntil { text += ", skipped until \(SourceOutage.clockTime(until)) at the latest" }
                text += ")"
            }
        }
        if let ended = report.outageEnded { text += "\n" + ended.endMessage() }
        for note in report.notes { text += "\n  note: \(DisplayText.line(note, limit: 300))" }
        if report.sourceOutage == nil {
            for (channel, reason) in report.failedChannels.sorted(by: { $0.key < $1.key }) {
                text += "\n  \(DisplayText.line(channel, limit: 30)): \(DisplayText.line(String(describing: reason), limit: 300))"
            }
        }
        if let error = report.error { text += "\nerror: \(DisplayText.line(String(describing: error), limit: 500))" }
        if let markSync = report.markSync {
            text += "\nstatus sync: \(markSync.pushed) pushed, \(markSync.pulled) pulled, \(markSync.conflicts) conflicts, \(markSync.deferred) deferred"
            if markSync.dropped > 0 { text += ", \(markSync.dropped) records dropped (invalid name or unreadable status)" }
            if markSync.subscriptionsPushed + markSync.subscriptionsPulled > 0 {
                text += "\nsubscriptions: \(markSync.subscriptionsPushed) pushed, \(markSync.subscriptionsPulled) pulled"
                if markSync.subscriptionsMerged > 0 { text += ", \(markSync.subscriptionsMerged) merged with another device's changes" }
            }
        }
        if let error = report.markSyncError { text += "\nstatus error: \(DisplayText.line(String(describing: error), limit: 500))" }
        return text
    }
}
