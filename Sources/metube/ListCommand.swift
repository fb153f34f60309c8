import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube list`: the feed as text or JSON.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the feed, newest first.")

    @OptionGroup var store: StoreAccess

    @Option(help: "Which videos: unwatched, watched, skipped, in-progress (partly watched in mpv), upcoming (premieres and streams not started yet, and live ones, soonest first) or all. Videos whose status is not known yet show under every filter; upcoming and gone videos show only under upcoming (gone: all). Default: unwatched, or all with --query or a saved --view.")
    var filter: FeedFilter?

    @Option(help: ArgumentHelp("Only videos this query selects, e.g. 'tag:music and unwatched and !short' (see Queries, saved views and rules in the README).", valueName: "query"))
    var query: String?

    @Option(help: ArgumentHelp("A view: unwatched, all, watched, skipped, in-progress, upcoming, or a [views.NAME] of the config file.", valueName: "name"))
    var view: String?

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
        let query = try feedQuery()
        var stoppedRegexes = 0
        let rows = try (tag == nil ? headRows(query) : nil) ?? {
            let opened = try store.openStore()
            let library = opened.library()
            var context = QueryContext(library: library, statusesKnown: store.statusesKnown(opened.syncSnapshot()))
            defer { stoppedRegexes = context.stoppedRegexes }
            guard let tag = tag.flatMap(ChannelTags.checked) else { return query.rows(in: &context, limit: limit) }
            let tagged = Set(library.channels.values.filter { $0.tags?.contains(tag) == true }.map(\.id))
            return Array(query.rows(in: &context, limit: .max).lazy.filter { tagged.contains($0.video.channelID) }.prefix(limit))
        }()
        if stoppedRegexes > 0 { printError(QueryOption.stoppedNote(stoppedRegexes)) }
        if json {
            try printJSON(ListOutput(count: rows.count, videos: rows.map(VideoOutput.init)))
            return
        }
        for row in rows {
            let badge = row.mark.map { $0.syncState.badge(unicode: false) } ?? " "
            let duration = row.video.availability == .available ? row.video.duration.map(DurationText.format) ?? "" : row.video.availability.rawValue
            print("\(DisplayText.line(row.video.id, limit: 24))  \(badge) \(row.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  \(Self.day(row.video.published))  \(duration.padding(toLength: 8, withPad: " ", startingAt: 0))  \(DisplayText.line(row.channelName, limit: 100)) — \(DisplayText.line(row.video.title))")
        }
    }

    /// The selection the options make: the view's filter and query, `--query` on top, and the
    /// config file's rules (their `hide` applies to every view but `all`).
    private func feedQuery() throws -> FeedQuery {
        let settings = try store.settings()
        let saved = try view.map { name in
            guard let saved = settings.view(named: name) else {
                throw fail("no view \(DisplayText.line(name, limit: 40)); \(NearestName.hint(for: name, among: settings.allViews.map(\.name)))", code: ExitStatus.badInput)
            }
            return saved
        }
        let extra = try query.map { try QueryOption.parse($0, option: "--query") }
        var selection = FeedQuery(filter: filter ?? saved?.filter ?? (extra == nil ? .unwatched : .all), channelID: channelID.flatMap(ChannelID.extract), search: search, hideShorts: hideShorts)
        selection.query = QueryOption.both(saved?.query, extra)
        selection.rules = settings.rules
        return selection
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
    /// The config file's rule that made the mark, when a rule did.
    var rule: String?
    /// Whether it can be watched now: available, upcoming, live, members-only, gone or private.
    var availability: Availability
    /// When an upcoming premiere or stream is scheduled to start, when a source said so.
    var scheduledStart: Date?
    /// The view count as the feed last gave it, exactly; absent when unknown.
    var views: Int?
    /// The rating count as the feed last gave it, exactly; absent when unknown.
    var starRatings: Int?

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
        rule = row.mark?.rule
        availability = row.video.availability
        scheduledStart = row.video.scheduledStart
        views = row.video.views
        starRatings = row.video.starRatings
    }
}
