import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube queue [add|remove VIDEO…]`: the watch-later queue.
struct QueueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List the watch-later queue, or add and remove videos.",
        discussion: """
            The queue is ordered by when each video was added, and syncs between devices with the watch status. Marking a video watched or skipped takes it out.
            A video id that starts with - is given after --, e.g. `metube queue add -- -hAAAAAAAAA`.
            In the TUI, l adds or takes out the selected video, and L shows the queue, where J and K move the selected video down and up while the details pane is closed.
            Exit codes: 4 when a video to add is not in the library (without --force) or one to remove was not queued; 65 for something that is not a video id or URL.
            """,
        subcommands: [QueueListCommand.self, QueueAddCommand.self, QueueRemoveCommand.self],
        defaultSubcommand: QueueListCommand.self
    )
}

/// `metube queue list`: prints the queue in order.
struct QueueListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the queue, first added first (the default).")

    @OptionGroup var store: StoreAccess

    @Flag(help: "Print the queue as JSON.")
    var json = false

    func run() throws {
        let library = try store.openStore().library()
        let rows = library.queuedVideoIDs.compactMap { library.queue[$0] }.map { entry in
            let video = library.video(entry.videoID)
            return QueueOutput(videoId: entry.videoID, title: video?.title, channelId: video?.channelID,
                               queuedAt: Date(timeIntervalSince1970: Double(entry.queuedAt ?? 0) / 1000), syncState: entry.syncState)
        }
        if json { return try printJSON(QueueListOutput(count: rows.count, videos: rows)) }
        let format = Date.ISO8601FormatStyle().year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)
        for row in rows {
            print("\(row.videoId)  \(row.queuedAt.formatted(format))  \(DisplayText.line(row.title ?? "(not in the library)", limit: 100))")
        }
    }
}

/// `metube queue add VIDEO…`: puts videos at the end of the queue.
struct QueueAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add videos to the end of the queue (a queued video keeps its place).")

    @OptionGroup var store: StoreAccess

    @Argument(help: ArgumentHelp("Video ids, or watch, youtu.be or shorts URLs.", valueName: "video"))
    var videos: [String]

    @Flag(help: "Add even when a video is not in the library (e.g. known only to another device).")
    var force = false

    func validate() throws {
        if videos.isEmpty { throw ValidationError("give at least one video, e.g. `metube queue add dQw4w9WgXcQ`") }
    }

    func run() throws {
        let opened = try store.openStore()
        let ids = try QueueIDs.parse(videos)
        if !force, let missing = ids.first(where: { opened.library().video($0) == nil }) {
            throw fail("no video \(missing) in the library (use --force to queue it anyway)", code: ExitStatus.notFound)
        }
        let added = try withStoreErrors { () throws(StoreError) in
            try opened.transaction { transaction in ids.compactMap { transaction.addToQueue($0)?.videoID } }
        }
        for id in ids { print("\(id) \(added.contains(id) ? "queued" : "already queued")") }
    }
}

/// `metube queue remove VIDEO…`: takes videos out of the queue.
struct QueueRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take videos out of the queue.")

    @OptionGroup var store: StoreAccess

    @Argument(help: ArgumentHelp("Video ids, or watch, youtu.be or shorts URLs.", valueName: "video"))
    var videos: [String]

    func validate() throws {
        if videos.isEmpty { throw ValidationError("give at least one video, e.g. `metube queue remove dQw4w9WgXcQ`") }
    }

    func run() throws {
        let opened = try store.openStore()
        let ids = try QueueIDs.parse(videos)
        let removed = try withStoreErrors { () throws(StoreError) in
            try opened.transaction { transaction in ids.compactMap { transaction.takeOutOfQueue($0)?.videoID } }
        }
        for id in ids { print("\(id) \(removed.contains(id) ? "removed" : "was not queued")") }
        if removed.count < ids.count { throw ExitCode(ExitStatus.notFound) }
    }
}

/// The video ids the queue commands were given.
enum QueueIDs {
    /// The ids of `words` (ids or URLs); one that is neither ends the command with 65.
    static func parse(_ words: [String]) throws -> [String] {
        try words.map { word in
            guard let id = VideoID.extract(from: word) else {
                throw fail("\(DisplayText.line(word, limit: 60)) is not a YouTube video id (11 characters of A-Z a-z 0-9 _ -) or video URL", code: ExitStatus.badInput)
            }
            return id
        }
    }
}

/// `metube queue --json`: the shape of every list command's JSON, a count and the rows.
struct QueueListOutput: Encodable {
    var count: Int
    var videos: [QueueOutput]
}

/// One row of `metube queue --json`.
struct QueueOutput: Encodable {
    var videoId: String
    /// `nil` when the video is not in this device's library (queued on another device).
    var title: String?
    var channelId: String?
    var queuedAt: Date
    var syncState: SyncState
}
