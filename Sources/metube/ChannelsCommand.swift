import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube channels list|add|remove`.
struct ChannelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "List, add or remove followed channels.",
        subcommands: [List.self, Add.self, Remove.self],
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
            let output = channels.map { channel in
                ChannelOutput(channelId: channel.id, title: channel.title, videoCount: totals[channel.id]?.videos ?? 0,
                              unseenCount: totals[channel.id]?.unseen ?? 0, lastFetchError: fetches[channel.id]?.lastError)
            }
            if json { return try printJSON(ChannelsOutput(count: output.count, channels: output)) }
            for channel in output {
                let failing = channel.lastFetchError.map { "  (failing: \(DisplayText.line($0, limit: 200)))" } ?? ""
                let title = DisplayText.line(channel.title ?? channel.channelId)
                print("\(DisplayText.line(channel.channelId, limit: 30))  \(String(channel.unseenCount).padding(toLength: 5, withPad: " ", startingAt: 0)) unseen  \(title)\(failing)")
            }
        }
    }

    /// `metube channels add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Follow channels by id or channel URL.")

        @OptionGroup var store: StoreAccess

        @Argument(help: ArgumentHelp("Channel ids (UC…) or /channel/UC… URLs.", valueName: "channel"))
        var channels: [String]

        func run() throws {
            var ids: [String] = []
            for text in channels {
                guard let id = ChannelID.extract(from: text) else {
                    throw fail("\(DisplayText.line(text, limit: 60)) is not a channel id (UC followed by 22 characters) or a /channel/ URL; nothing was added", code: ExitStatus.badInput)
                }
                ids.append(id)
            }
            let opened = try store.openStore()
            let added = try withStoreErrors { () throws(StoreError) in
                try opened.transaction { transaction in
                    let new = ids.filter { transaction.library.channels[$0] == nil }
                    transaction.change.channels = new.map { Channel(id: $0) }
                    return new.count
                }
            }
            print("added \(added) channel(s), \(ids.count - added) already followed")
        }
    }

    /// `metube channels remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop following channels; their videos leave the feed, marks stay.")

        @OptionGroup var store: StoreAccess

        @Argument(help: ArgumentHelp("Channel ids (UC…) or /channel/UC… URLs.", valueName: "channel"))
        var channels: [String]

        func run() throws {
            var ids: [String] = []
            for text in channels {
                guard let id = ChannelID.extract(from: text) else {
                    throw fail("\(DisplayText.line(text, limit: 60)) is not a channel id (UC followed by 22 characters) or a /channel/ URL; nothing was removed", code: ExitStatus.badInput)
                }
                ids.append(id)
            }
            let opened = try store.openStore()
            let unknown = ids.filter { opened.library().channels[$0] == nil }
            guard unknown.isEmpty else {
                throw fail("not followed: \(unknown.joined(separator: ", ")); nothing was removed", code: ExitStatus.notFound)
            }
            try withStoreErrors { () throws(StoreError) in try opened.apply(StoreChange(removedChannelIDs: ids)) }
            print("removed \(ids.count) channel(s)")
        }
    }
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
}
