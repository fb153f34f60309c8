import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeTransfer
import MeTubeYouTube

/// What direct mode asks YouTube beyond the feeds (`[hub] backfill`, `[youtube] api-key`,
/// `[download] command`): a channel's last uploads when it is newly followed or its feed
/// overflowed since the last run — from `playlistItems.list` with a key, else yt-dlp's flat
/// playlist — and the lengths of the new videos of the channels a run fetches: with a key from
/// `videos.list`, else from the same flat playlist.
public struct DirectCatalog: Sendable {
    /// How many entries YouTube's channel feed holds: a feed this full of videos never seen may
    /// have lost some off its end.
    public static let feedSize = 15
    /// How many uploads a lengths call asks for: more than one feed holds.
    public static let lengthWindow = 30
    /// How long one yt-dlp call may take.
    public static let ytDLPDeadline: Duration = .seconds(60)

    /// The uploads a backfill brings (0: no backfill).
    public var backfill: Int
    /// The Data API, when a key is set.
    public var dataAPI: YouTubeDataAPI?
    /// yt-dlp, when one is configured.
    public var ytDLP: YTDLPCatalog?

    /// A catalog bringing `backfill` uploads (clamped to 0…``YTDLPCatalog/maxUploads``) and
    /// lengths from `dataAPI` when given, else `ytDLP`.
    public init(backfill: Int, dataAPI: YouTubeDataAPI?, ytDLP: YTDLPCatalog?) {
        self.backfill = min(max(backfill, 0), YTDLPCatalog.maxUploads)
        self.dataAPI = dataAPI
        self.ytDLP = ytDLP
    }

    /// Whether backfills can run.
    var backfills: Bool { backfill > 0 && (dataAPI != nil || ytDLP != nil) }
    /// Whether new videos' lengths are asked (of the Data API with a key, else of yt-dlp).
    var fillsLengths: Bool { dataAPI != nil || ytDLP != nil }

    /// What `need` asks for `channelID`. With a key: a backfill from `playlistItems.list`, and
    /// from `videos.list` the lengths of `lengthless` and of the backfilled uploads `library`
    /// does not hold (so each new video is asked once). Else from yt-dlp's flat playlist, which
    /// holds the lengths too: a backfill, or the last ``lengthWindow`` uploads.
    func answer(for need: CatalogNeed, of channelID: String, lengthless: [String], library: Library) async throws(YouTubeError) -> CatalogAnswer {
        if let dataAPI {
            var uploads = need == .backfill ? try await dataAPI.uploads(of: channelID, count: backfill) : ChannelUploads(channelID: channelID, videos: [])
            let backfilled = uploads.videos.prefix(backfill).map(\.id).filter { library.video($0) == nil }
            let lengths = try await dataAPI.lengths(of: lengthless + backfilled)
            for index in uploads.videos.indices { uploads.videos[index].durationSeconds = lengths[uploads.videos[index].id] }
            return CatalogAnswer(uploads: uploads, lengths: lengths)
        }
        guard let ytDLP else { throw .missingExecutable("no yt-dlp configured") }
        let uploads = try await ytDLP.channelUploads(channelID, count: need == .backfill ? max(backfill, Self.lengthWindow) : Self.lengthWindow)
        return CatalogAnswer(uploads: uploads, lengths: uploads.lengths)
    }

    /// The videos of `feed` whose lengths a call with a key asks: those of `channelID` with a
    /// valid id that `library` does not hold, then `owed` (the channel's videos an earlier run
    /// left without a length).
    func lengthless(in feed: AtomFeed?, of channelID: String, library: Library, owed: [String]) -> [String] {
        guard dataAPI != nil else { return [] }
        let unseen = feed?.entries.filter { $0.channelID == channelID && PeerInput.isVideoID($0.videoID) && library.video($0.videoID) == nil } ?? []
        return unseen.map(\.videoID) + owed
    }

    /// What `feed` of `channelID` needs (nil for a feed not modified), given the `library`
    /// before the run, whether the channel was fetched successfully before and what an earlier
    /// run `owed` it: a backfill when it never was fetched, when its feed is full of videos the
    /// library never held, or when one is owed; else the lengths when the feed brought a video the
    /// library does not hold, or when owed; else nothing (and what is owed but no longer possible
    /// — no key nor yt-dlp, backfill turned off — is dropped).
    func need(for feed: AtomFeed?, of channelID: String, library: Library, fetchedBefore: Bool, owed: CatalogNeed?) -> CatalogNeed? {
        let entries = feed?.entries.filter { $0.channelID == channelID } ?? []
        let unseen = entries.filter { library.video($0.videoID) == nil }
        let overflowed = entries.count >= Self.feedSize && unseen.count == entries.count
        if backfills, owed == .backfill || !fetchedBefore || overflowed { return .backfill }
        if fillsLengths, owed != nil || !unseen.isEmpty { return .lengths }
        return nil
    }
}

/// What a catalog call answered: the channel's last uploads (none for lengths from the Data
/// API) and the lengths it gave, by video id.
struct CatalogAnswer: Sendable {
    var uploads: ChannelUploads
    var lengths: [String: Int]
}

/// What a channel still needs of the ``DirectCatalog``.
enum CatalogNeed: String, Codable, Sendable, Equatable {
    /// Its last uploads and their lengths.
    case backfill
    /// The lengths of its new videos.
    case lengths

    /// The larger of two needs: a backfill covers the lengths.
    func merged(with other: CatalogNeed?) -> CatalogNeed {
        other == .backfill ? .backfill : self
    }
}
