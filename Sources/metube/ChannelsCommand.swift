import Foundation
import ArgumentParser
import MeTubeCore
import MeTubeFeeds
import MeTubeStore

/// `metube channels list|add|remove`.
struct ChannelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "List, add, remove or tag followed channels.",
        discussion: """
            Follows, unfollows and tags travel to your other devices through the status service \
            (`metube sync`): of a follow and an unfollow the later wins, and tags added on different \
            devices are all kept.
            """,
        subcommands: [List.self, Add.self, Remove.self, Tag.self, Untag.self],
        defaultSubcommand: List.self
    )

    /// `metube channels list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List followed channels with their video counts.")

        @OptionGroup var store: StoreAccess

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let opened = try store.openStore()
            let library = opened.library()
            let statusesKnown = try store.statusesKnown(opened)
            var totals: [String: (videos: Int, unseen: Int)] = [:]
            for video in library.videos {
                let status = FeedQuery.status(of: library.marks[video.id], statusesKnown: statusesKnown)
                totals[video.channelID, default: (0, 0)].videos += 1
                if status == .unwatched || status == .unknown { totals[video.channelID, default: (0, 0)].unseen += 1 }
            }
            let channels = library.channels.values.sorted { $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending }
            let fetches = opened.syncSnapshot().channelFetches
            let deviceID = opened.syncSnapshot().deviceID
            let output = channels.map { channel in
                ChannelOutput(channelId: channel.id, title: channel.title, videoCount: totals[channel.id]?.videos ?? 0,
                              unseenCount: totals[channel.id]?.unseen ?? 0, lastFetchError: fetches[channel.id]?.lastError,
                              tags: channel.tags ?? [], syncState: library.subscription(of: channel.id, deviceID: deviceID)?.syncState.rawValue)
            }
            if json { return try printJSON(ChannelsOutput(count: output.count, channels: output)) }
            for channel in output {
                let failing = channel.lastFetchError.map { "  (failing: \(DisplayText.line($0, limit: 200)))" } ?? ""
                let title = DisplayText.line(channel.title ?? channel.channelId)
                let tags = channel.tags.isEmpty ? "" : "  [\(DisplayText.line(channel.tags.joined(separator: ", "), limit: 200))]"
                print("\(DisplayText.line(channel.channelId, limit: 30))  \(String(channel.unseenCount).padding(toLength: 5, withPad: " ", startingAt: 0)) unseen  \(title)\(tags)\(failing)")
            }
        }
    }

    /// `metube channels add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow channels by id, channel, @handle, /c/, /user/ or video link.",
            discussion: """
                Takes what you copy from a browser or a share sheet: UC… ids, @handles, and channel, handle, /c/, \
                /user/ or video links (a video's channel is followed) of youtube.com, m., music., youtu.be and \
                youtube-nocookie.com, with any parameters. Handles, names and videos are resolved by the hub in hub \
                mode (signed in with metube login), else with a YouTube Data API key when one is set, else with the \
                yt-dlp of [download] command. A link that is not one \
                of these adds nothing (exit 65); links that cannot be resolved are reported and the rest added (exit 2).
                """)

        @OptionGroup var store: StoreAccess

        @Argument(help: ArgumentHelp("Channel ids (UC…), @handles, or channel, handle, /c/, /user/ or video links.", valueName: "link"))
        var channels: [String]

        func run() async throws {
            var ids: [String] = []
            var links: [ChannelLink] = []
            for text in channels {
                switch ChannelReference.parse(text) {
                case let .channel(id): ids.append(id)
                case let .link(link): links.append(link)
                case let .unusable(reason):
                    throw fail("\(DisplayText.line(text, limit: 60)): \(reason); nothing was added", code: ExitStatus.badInput)
                }
            }
            let settings = try store.settings()
            let resolved = await LinkResolution(settings: settings).resolve(links)
            var failed = 0
            for link in links {
                switch resolved[link] {
                case let .success(id)?: ids.append(id)
                case let .failure(error)?:
                    failed += 1
                    printError("\(DisplayText.line(link.description, limit: 60)): \(DisplayText.line(error.description, limit: 300))")
                case nil: break
                }
            }
            let opened = try store.openStore()
            let distinct = ids.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let added = try withStoreErrors { () throws(StoreError) in
                try opened.transaction { transaction in
                    let new = distinct.filter { transaction.library.channels[$0] == nil }
                    for id in new { transaction.follow(Channel(id: id)) }
                    return new.count
                }
            }
            print("added \(added) channel(s), \(distinct.count - added) already followed\(failed > 0 ? ", \(failed) not resolved" : "")")
            if failed > 0 { throw ExitCode(ExitStatus.partial) }
        }
    }

    /// `metube channels remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop following channels; their videos leave the feed, marks stay.")

        @OptionGroup var store: StoreAccess

        @Argument(help: ArgumentHelp("Channel ids (UC…) or /channel/UC… URLs.", valueName: "channel"))
        var channels: [String]

        func run() throws {
            let ids = try channels.map { try followedChannelID($0, nothing: "removed") }
            let opened = try store.openStore()
            let unknown = ids.filter { opened.library().channels[$0] == nil }
            guard unknown.isEmpty else {
                throw fail("not followed: \(unknown.joined(separator: ", ")); nothing was removed", code: ExitStatus.notFound)
            }
            try withStoreErrors { () throws(StoreError) in
                try opened.transaction { transaction in
                    for id in ids { transaction.unfollow(id) }
                }
            }
            print("removed \(ids.count) channel(s)")
        }
    }

    /// `metube channels tag`.
    struct Tag: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add tags to a followed channel.")

        @OptionGroup var store: StoreAccess

        @Argument(help: ArgumentHelp("A channel id (UC…) or /channel/UC… URL.", valueName: "channel"))
        var channel: String

        @Argument(help: ArgumentHelp("Tags to add (at most \(ChannelTags.maxCount) a channel, \(ChannelTags.maxCharacters) characters each).", valueName: "tag"))
        var tags: [String]

        func run() throws {
            try retag(store, channel, tags, verb: "tagged") { known, given in known + given }
        }
    }

    /// `metube channels untag`.
    struct Untag: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove tags from a followed channel.")

        @OptionGroup var store: StoreAccess

        @Argument(help: ArgumentHelp("A channel id (UC…) or /channel/UC… URL.", valueName: "channel"))
        var channel: String

        @Argument(help: ArgumentHelp("Tags to remove.", valueName: "tag"))
        var tags: [String]

        func run() throws {
            try retag(store, channel, tags, verb: "untagged") { known, given in known.filter { !given.contains($0) } }
        }
    }
}

/// Sets the tags of `text`'s channel to what `combine` makes of its tags and the `given` ones,
/// and prints the result; a bad id or tag, or a channel not followed, exits with a message.
private func retag(_ store: StoreAccess, _ text: String, _ given: [String], verb: String, _ combine: ([String], [String]) -> [String]) throws {
    let id = try followedChannelID(text, nothing: "changed")
    if let bad = given.first(where: { ChannelTags.checked($0) == nil }) {
        throw fail("\(DisplayText.line(bad, limit: 60)) is not a tag (1 to \(ChannelTags.maxCharacters) characters, no control characters); nothing was changed", code: ExitStatus.badInput)
    }
    let opened = try store.openStore()
    let tags = try withStoreErrors { () throws(StoreError) -> [String]? in
        try opened.transaction { transaction -> [String]? in
            guard let known = transaction.subscription(of: id), known.followed else { return nil }
            let tags = ChannelTags.bounded(combine(known.tags, given))
            transaction.setTags(tags, of: id)
            return tags
        }
    }
    guard let tags else { throw fail("not followed: \(id); nothing was changed", code: ExitStatus.notFound) }
    print("\(verb) \(id): \(tags.isEmpty ? "no tags" : DisplayText.line(tags.joined(separator: ", "), limit: 300))")
}

/// The channel id `text` names offline (an id, or a /channel/ or feed URL: a followed channel is
/// known by its id); anything else exits with a message saying nothing was `nothing` (removed, changed).
private func followedChannelID(_ text: String, nothing: String) throws -> String {
    guard case let .channel(id) = ChannelReference.parse(text) else {
        throw fail("\(DisplayText.line(text, limit: 60)) is not a channel id (UC followed by 22 characters) or a /channel/ URL; nothing was \(nothing)", code: ExitStatus.badInput)
    }
    return id
}

/// `metube channels list --json`.
struct ChannelsOutput: Encodable {
    var count: Int
    var channels: [ChannelOutput]
}

/// One channel in JSON output.
struct ChannelOutput: Encodable {
    var channelId: String
    var title: String?
    var videoCount: Int
    var unseenCount: Int
    var lastFetchError: String?
    var tags: [String]
    /// Where the channel's follow and tags stand with the mark-sync service: synced, pending,
    /// conflict or offline.
    var syncState: String?
}
