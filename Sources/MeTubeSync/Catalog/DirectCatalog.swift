import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeYouTube

/// What direct mode asks YouTube beyond the feeds (`[hub] backfill`, `[youtube] api-key`,
/// `[download] command`): a channel's last uploads when it is newly followed or its feed
/// overflowed since the last run — from `playlistItems.list` with a key, else yt-dlp's flat
/// playlist — and, without a key, the lengths of the new videos of the channels a run fetches,
/// from the same flat playlist.
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

    /// A catalog bringing `backfill` uploads (clamped to 0…``YTDLPCatalog/maxUploads``) from
    /// `dataAPI` when given, else `ytDLP`, which also gives lengths when there is no `dataAPI`.
    public init(backfill: Int, dataAPI: YouTubeDataAPI?, ytDLP: YTDLPCatalog?) {
        self.backfill = min(max(backfill, 0), YTDLPCatalog.maxUploads)
        self.dataAPI = dataAPI
        self.ytDLP = ytDLP
    }

    /// Whether backfills can run.
    var backfills: Bool { backfill > 0 && (dataAPI != nil || ytDLP != nil) }
    /// Whether new videos' lengths are asked of yt-dlp (only without a key).
    var fillsLengths: Bool { dataAPI == nil && ytDLP != nil }

    /// What `need` asks for `channelID`: a backfill through the Data API or yt-dlp (whose flat
    /// playlist holds the lengths too), or the last ``lengthWindow`` uploads from yt-dlp.
    func uploads(of channelID: String, for need: CatalogNeed) async throws(YouTubeError) -> ChannelUploads {
        if need == .backfill, let dataAPI { return try await dataAPI.uploads(of: channelID, count: backfill) }
        guard let ytDLP else { throw .missingExecutable("no yt-dlp configured") }
        return try await ytDLP.channelUploads(channelID, count: need == .backfill ? max(backfill, Self.lengthWindow) : Self.lengthWindow)
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

/// What a channel still needs of the ``DirectCatalog``.
enum CatalogNeed: String, Codable, Sendable, Equatable {
    /// Its last uploads (and, without a key, their lengths).
    case backfill
    /// The lengths of its new videos.
    case lengths

    /// The larger of two needs: a backfill covers the lengths.
    func merged(with other: CatalogNeed?) -> CatalogNeed {
        other == .backfill ? .backfill : self
    }
}
