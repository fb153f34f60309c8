import MeTubeAPI
import MeTubeCore

/// What one fetched feed changes in the hub, decided once for every backend from what the hub
/// holds of the feed's videos: which videos are stored under a fresh `seq`, which are refreshed
/// in place (``StoredVideoDetails``), what is counted as inserted or updated, and which channels
/// are trimmed to ``keptPerChannel`` videos afterwards.
///
/// A ``HubRepository`` reads the stored details and writes the plan in one transaction (see
/// ``HubRepository/ingest(_:planning:)``); the rules live here, not in the repositories.
public struct FeedIngestionPlan: Sendable {
    /// The videos stored under a fresh `seq` each, one `seq` a video, in the feed's order: new
    /// videos, and known ones whose title, availability or description changed.
    public private(set) var resequenced: [Video] = []
    /// Known videos whose counts or thumbnail are written in place, keeping their `seq`.
    public private(set) var refreshed: [Video] = []
    /// The count of new and re-sequenced videos.
    public private(set) var outcome = FeedIngestionOutcome(inserted: 0, updated: 0)
    /// The channels of the re-sequenced videos, in id order: each keeps its newest
    /// ``keptPerChannel`` videos (by publication, then `seq`), the rest are deleted.
    public let trimmedChannelIDs: [String]
    /// How many videos a trimmed channel keeps.
    public let keptPerChannel = HubAPI.videosKeptPerChannel

    /// The plan for `ingestion` over `known`, the stored details of those of its videos the hub
    /// holds. A video the feed lists more than once is taken once, at its first place, as its last
    /// copy says, with what earlier copies said of fields the last one lacks. A known video keeps
    /// the availability the hub holds where ``FeedAvailabilityPrecedence`` says a feed cannot undo it.
    public init(_ ingestion: FeedIngestion, known: [String: StoredVideoDetails]) {
        for incoming in Self.distinct(ingestion.videos) {
            var video = incoming
            if let stored = known[incoming.id] {
                video = stored.reconciled(incoming)
                switch stored.change(to: video) {
                case .none: continue
                case .refresh:
                    refreshed.append(video)
                    continue
                case .resequence: outcome.updated += 1
                }
            } else {
                outcome.inserted += 1
            }
            resequenced.append(video)
        }
        trimmedChannelIDs = Set(resequenced.map(\.channelID)).sorted()
    }

    /// `videos` with each id once, at its first place: its last copy, with the description,
    /// thumbnail and counts of earlier copies where the later ones lack them.
    static func distinct(_ videos: [Video]) -> [Video] {
        var places: [String: Int] = [:]
        var distinct: [Video] = []
        for video in videos {
            guard let place = places[video.id] else {
                places[video.id] = distinct.count
                distinct.append(video)
                continue
            }
            let earlier = distinct[place]
            var merged = video
            merged.description = video.description ?? earlier.description
            merged.thumbnailURL = video.thumbnailURL ?? earlier.thumbnailURL
            merged.views = video.views ?? earlier.views
            merged.starRatings = video.starRatings ?? earlier.starRatings
            distinct[place] = merged
        }
        return distinct
    }
}
