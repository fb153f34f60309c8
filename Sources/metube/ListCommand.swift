import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube list`: the feed as text or JSON.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the feed, newest first.")

    @OptionGroup var store: StoreAccess

    @Option(help: "Which videos: unwatched, watched, skipped, in-progress (partly watched in mpv) or all. Videos whose status is not known yet show under every filter.")
    var filter: FeedFilter = .unwatched

    @Option(name: .customLong("channel"), help: ArgumentHelp("Only this channel's videos.", valueName: "channel-id"))
    var channelID: String?

    @Option(help: ArgumentHelp("Only videos of channels with this tag (see `metube channels tag`).", valueName: "tag"))
    var tag: String?

    @Option(help: "Only videos whose title or channel contains this text (case-insensitive).")
    var search: String = ""

    @Flag(help: "Leave out Shorts.")
    var hideShorts = false

    @Option(help: "At most this many videos.")
    var limit: Int = .max

    @Flag(help: "Print JSON (see the README for its fields).")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if let channelID, ChannelID.extract(from: channelID) == nil {
            throw ValidationError("--channel takes a channel id (UC followed by 22 characters) or a /channel/ URL, not \(DisplayText.line(channelID, limit: 60))")
        }
        if let tag, ChannelTags.checked(tag) == nil {
            throw ValidationError("--tag takes a tag of 1 to \(ChannelTags.maxCharacters) characters without control characters, not \(DisplayText.line(tag, limit: 60))")
        }
    }

    func run() throws {
        let query = FeedQuery(filter: filter, channelID: channelID.flatMap(ChannelID.extract), search: search, hideShorts: hideShorts)
        let rows = try (tag == nil ? headRows(query) : nil) ?? {
            let opened = try store.openStore()
            let library = opened.library()
            guard let tag = tag.flatMap(ChannelTags.checked) else {
                return query.rows(in: library, statusesKnown: store.statusesKnown(opened.syncSnapshot()), limit: limit)
            }
            let tagged = Set(library.channels.values.filter { $0.tags?.contains(tag) == true }.map(\.id))
            let rows = query.rows(in: library, statusesKnown: store.statusesKnown(opened.syncSnapshot()), limit: .max)
            return Array(rows.lazy.filter { tagged.contains($0.video.channelID) }.prefix(limit))
        }()
        if json {
            try printJSON(ListOutput(count: rows.count, videos: rows.map(VideoOutput.init)))
            return
        }
        for row in rows {
            let badge = row.mark.map { $0.syncState.badge(unicode: false) } ?? " "
            let duration = row.video.duration.map(DurationText.format) ?? ""
            print("\(DisplayText.line(row.video.id, limit: 24))  \(badge) \(row.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  \(Self.day(row.video.published))  \(duration.padding(toLength: 8, withPad: " ", startingAt: 0))  \(DisplayText.line(row.channelName, limit: 100)) — \(DisplayText.line(row.video.title))")
        }
    }

    /// The rows from the store's head alone (see `LibraryHead`), when it holds all `limit` of them:
    /// a short list never waits for the whole library to be read.
    private func headRows(_ query: FeedQuery) throws -> [FeedRow]? {
        guard limit <= Self.headRowLimit, let head = Store.readHead(at: store.directory, options: try store.storeOptions()) else { return nil }
        return head.rows(query, statusesKnown: store.statusesKnown(head.sync), limit: limit)
    }

    /// The longest list worth trying from the store's head.
    private static let headRowLimit = 1_000

    private static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}

extension FeedFilter: ExpressibleByArgument {}
extension WatchStatus: ExpressibleByArgument {}

/// `metube list --json`.
struct ListOutput: Encodable {
    var count: Int
    var videos: [VideoOutput]
}

/// One video in JSON output.
struct VideoOutput: Encodable {
    var videoId: String
    var channelId: String
    var channelTitle: String
    var title: String
    var published: Date
    var durationSeconds: Int?
    var isShort: Bool
    var url: String
    var status: DisplayStatus
    var syncState: SyncState?
    /// Where playback stopped, in seconds; absent when the video was never played in mpv.
    var positionSeconds: Double?

    init(_ row: FeedRow) {
        videoId = row.video.id
        channelId = row.video.channelID
        channelTitle = row.channelName
        title = row.video.title
        published = row.video.published
        durationSeconds = row.video.duration
        isShort = row.video.isShort
        url = row.video.url
        status = row.status
        syncState = row.mark?.syncState
        positionSeconds = row.position?.seconds
    }
}
