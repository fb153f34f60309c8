import Foundation
import MeTubeCore
import MeTubeStore
@testable import MeTubeSync
import MeTubeTransfer
import Testing
import TestSupport

/// Direct mode against a feed server that misbehaves: bad video ids, huge titles, a stalled feed.
@Suite struct HostileFeedTests {
    static let channelID = HostileHub.channelID(2)

    private static func entry(_ videoID: String, title: String) -> String {
        """
        <entry><yt:videoId>\(videoID)</yt:videoId><yt:channelId>\(channelID)</yt:channelId><title>\(title)</title>\
        <link rel="alternate" href="https://www.youtube.com/watch?v=x"/><published>2025-01-01T16:07:24+00:00</published></entry>
        """
    }

    private static func feed(_ entries: [String], title: String = "Hostile") -> String {
        "<feed xmlns:yt=\"http://www.youtube.com/xml/schemas/2015\" xmlns=\"http://www.w3.org/2005/Atom\">"
            + "<yt:channelId>\(channelID)</yt:channelId><title>\(title)</title>\(entries.joined())</feed>"
    }

    /// Syncs the store in `directory` directly from `peer`, each feed request bounded by `timeout`.
    private func sync(_ peer: HostilePeer, directory: TemporaryDirectory, timeout: Duration = .seconds(15)) async throws -> (SyncReport, Store) {
        let store = try HubSyncTestSupport.store(in: directory, following: [Channel(id: Self.channelID, title: "hostile")])
        let configuration = SyncConfiguration(source: .direct, feedURLTemplate: peer.url + "/feeds/{channelId}", requestTimeout: timeout)
        return (await SyncEngine(store: store, configuration: configuration).sync(), store)
    }

    @Test func entriesWithBadIdsAreDroppedAndTitlesCapped() async throws {
        // Given a feed with a good entry, entries whose ids are wrong, and a 20,000-character title
        let directory = TemporaryDirectory("metube-hostile-feed")
        defer { directory.remove() }
        let feed = Self.feed([
            Self.entry(HostileHub.videoID(1), title: "fine"),
            Self.entry("AAAAAAAAAA&#10;", title: "newline id"),
            Self.entry(String(repeating: "B", count: 5000), title: "long id"),
            Self.entry(HostileHub.videoID(2), title: String(repeating: "T", count: 20_000)),
        ], title: String(repeating: "N", count: 10_000))
        let peer = try await HostilePeer.start { _ in HostilePeer.Reply(headers: [("Content-Type", "application/atom+xml")], body: .bytes(Data(feed.utf8))) }
        defer { peer.stop() }

        // When it syncs directly
        let (report, store) = try await sync(peer, directory: directory)

        // Then only the valid entries are stored, and titles and the channel name are capped
        #expect(report.error == nil && report.failedChannels.isEmpty)
        #expect(Set(store.library().videos.map(\.id)) == [HostileHub.videoID(1), HostileHub.videoID(2)])
        #expect(store.library().videos.allSatisfy { $0.title.count <= PeerInput.maxTitleCharacters })
        #expect((store.library().channels[Self.channelID]?.title?.count ?? 0) <= PeerInput.maxTitleCharacters)
    }

    @Test(.timeLimit(.minutes(1))) func aStalledFeedFailsThatChannelOnly() async throws {
        // Given a feed server that sends the start of a feed, then nothing for 2 min
        let directory = TemporaryDirectory("metube-hostile-feed-stall")
        defer { directory.remove() }
        let peer = try await HostilePeer.start { _ in
            HostilePeer.Reply(headers: [("Content-Type", "application/atom+xml")], body: .stall(prefix: Data("<feed".utf8), for: .seconds(120), rest: Data("/>".utf8)))
        }
        defer { peer.stop() }

        // When it syncs directly with a 2 s limit per feed
        let started = ContinuousClock.now
        let (report, _) = try await sync(peer, directory: directory, timeout: .seconds(2))

        // Then that channel fails with a clear reason, promptly
        #expect(describing(report.failedChannels[Self.channelID]) == "the server did not answer within 2 s")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
