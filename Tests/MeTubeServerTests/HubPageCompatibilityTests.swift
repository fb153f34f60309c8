import Foundation
import GRDB
import MeTubeAPI
import MeTubeCore
import TestSupport
import Testing
@testable import MeTubeServer

/// `videos/query` answers must stay byte for byte what earlier versions sent, whose pages SQLite
/// wrote with `json_object` under the plan `channel_id IN (SELECT value FROM json_each(?)) ORDER
/// BY seq LIMIT ?`. That statement is kept here as the reference, with only metube-server's
/// additional fields appended when known (`json_patch` drops the null ones), as clients that
/// predate them ignore them.
@Suite struct HubPageCompatibilityTests {
    /// The page statement of the earlier versions (`SQLiteHubRepository.videoPageJSON`).
    static func referenceSQL(withChannels: Bool) -> String {
        let columns = """
            seq, json_patch(json_object('seq', seq, 'videoId', video_id, 'channelId', channel_id,
                'publishedAt', strftime('%Y-%m-%dT%H:%M:%SZ', CAST(published_at AS INTEGER) - (published_at < CAST(published_at AS INTEGER)), 'unixepoch'),
                'title', title, 'url', url, 'durationSeconds', duration_seconds),
                json_object('description', description, 'thumbnailUrl', thumbnail_url, 'viewCount', view_count, 'starRatingCount', star_rating_count))
            """
        return withChannels
            ? "SELECT \(columns) FROM hub_videos WHERE seq > ? AND channel_id IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?"
            : "SELECT \(columns) FROM hub_videos WHERE seq > ? ORDER BY seq LIMIT ?"
    }

    /// The page the earlier versions answered for `selection`.
    static func referencePage(_ selection: HubVideoSelection, in database: ServerDatabase) throws -> String {
        try database.writer.read { db in
            let rows: [Row]
            if selection.channelIDs.isEmpty {
                rows = try Row.fetchAll(db, sql: referenceSQL(withChannels: false), arguments: [selection.afterSeq, selection.limit])
            } else {
                let list = String(decoding: try JSONEncoder().encode(selection.channelIDs), as: UTF8.self)
                rows = try Row.fetchAll(db, sql: referenceSQL(withChannels: true), arguments: [selection.afterSeq, list, selection.limit])
            }
            let maxSeq: Int64 = rows.last?[0] ?? selection.afterSeq
            return "{\"videos\":[" + rows.map { $0[1] as String }.joined(separator: ",") + "],\"maxSeqReturned\":\(maxSeq)}"
        }
    }

    @Test(arguments: [216, 20_000])
    func everyPageIsByteIdenticalToTheEarlierAnswer(registeredChannels: Int) async throws {
        // Given a hub with 216 channels' videos (awkward titles, fractional and pre-1970 dates,
        // Shorts, missing durations), among `registeredChannels` registered channels, so both
        // query plans are taken
        let database = try ServerDatabase()
        let repository = try SQLiteHubRepository(database: database)
        let library = SyntheticLibrary(channelCount: 216, videoCount: 1_500, markCount: 0)
        let channels = library.channels().map(\.id)
        _ = try await repository.register(channelIDs: channels)
        for start in stride(from: 216, to: registeredChannels, by: 500) {
            _ = try await repository.register(channelIDs: (start..<min(start + 500, registeredChannels)).map(SyntheticLibrary.channelID))
        }
        let byChannel = Dictionary(grouping: library.videos().reversed(), by: \.channelID)
        for channel in library.channels() {
            _ = try await repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: byChannel[channel.id] ?? []))
        }
        var awkward = library.video(0)
        awkward.title = "He said \"hi\" \\ back\nnew line\ttab\u{01}\u{08}\u{0C}\u{1F}\u{7F} </script> \u{2028} 東京 🌃"
        awkward.published = Date(timeIntervalSince1970: -86_400.75)
        var renamed = library.video(5)
        renamed.title = "renamed 🎉"
        renamed.published = Date(timeIntervalSince1970: 1_790_000_000.5)
        _ = try await repository.ingest(FeedIngestion(channelID: awkward.channelID, channelTitle: nil, videos: [awkward, renamed]))

        // When every page of several selections is fetched, to the end
        let selections = [
            HubVideoSelection(channelIDs: channels, afterSeq: 0, limit: 100),
            HubVideoSelection(channelIDs: channels, afterSeq: 750, limit: 100),
            HubVideoSelection(channelIDs: [], afterSeq: 0, limit: 500),
            HubVideoSelection(channelIDs: Array(channels[100..<110]), afterSeq: 0, limit: 7),
            HubVideoSelection(channelIDs: [channels[3], SyntheticLibrary.channelID(99_999)], afterSeq: 0, limit: 3),
        ]
        let service = HubService(repository: repository)
        var pages = 0
        for start in selections {
            var selection = start
            while true {
                let page = try await repository.videos(matching: selection)
                let answer = String(buffer: HubJSONWriter.page(page))

                // Then each is the earlier answer, byte for byte, and so is the route's answer,
                // computed and then from its cache
                let reference = try Self.referencePage(selection, in: database)
                #expect(answer == reference)
                #expect(String(buffer: try await service.videoPage(body: try Self.body(selection)).bytes) == reference)
                #expect(String(buffer: try await service.videoPage(body: try Self.body(selection)).bytes) == reference)
                pages += 1
                if page.videos.isEmpty { break }
                selection.afterSeq = page.maxSeqReturned
            }
        }
        #expect(pages > 40)
    }

    @Test func aCachedPageFollowsEveryChangeToTheVideosFromAnyConnection() async throws {
        // Given a hub file with a page answered once, so it is cached
        let path = HubTestSupport.temporaryDatabasePath()
        let database = try ServerDatabase(path: path)
        let repository = try SQLiteHubRepository(database: database)
        let service = HubService(repository: repository)
        let library = SyntheticLibrary(channelCount: 20, videoCount: 200, markCount: 0)
        let channels = library.channels().map(\.id)
        _ = try await repository.register(channelIDs: channels)
        let byChannel = Dictionary(grouping: library.videos().reversed(), by: \.channelID)
        for channel in library.channels() {
            _ = try await repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: byChannel[channel.id] ?? []))
        }
        let selection = HubVideoSelection(channelIDs: channels, afterSeq: 0, limit: 50)
        let first = String(buffer: try await service.videoPage(body: try Self.body(selection)).bytes)
        #expect(first == (try Self.referencePage(selection, in: database)))

        // When a video is renamed through the repository, then the same body gets the new page
        var renamed = library.video(3)
        renamed.title = "renamed while cached"
        _ = try await repository.ingest(FeedIngestion(channelID: renamed.channelID, channelTitle: nil, videos: [renamed]))
        let afterRename = String(buffer: try await service.videoPage(body: try Self.body(selection)).bytes)
        #expect(afterRename != first)
        #expect(afterRename == (try Self.referencePage(selection, in: database)))

        // When another connection (as `metube-server channels remove` from another process)
        // deletes a channel's videos, then the same body gets the page without them
        #expect(try await SQLiteAdministration(path: path).removeChannel(id: channels[0]))
        let afterRemoval = String(buffer: try await service.videoPage(body: try Self.body(selection)).bytes)
        #expect(afterRemoval != afterRename)
        #expect(!afterRemoval.contains(channels[0]))
        #expect(afterRemoval == (try Self.referencePage(selection, in: database)))
    }

    /// The `videos/query` body of `selection`.
    static func body(_ selection: HubVideoSelection) throws -> Data {
        let ids = String(decoding: try JSONEncoder().encode(selection.channelIDs), as: UTF8.self)
        return Data("{\"channelIds\":\(ids),\"afterSeq\":\(selection.afterSeq),\"limit\":\(selection.limit)}".utf8)
    }
}
