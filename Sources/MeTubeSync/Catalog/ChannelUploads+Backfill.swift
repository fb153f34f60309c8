import Foundation
import MeTubeCore
import MeTubeTransfer
import MeTubeYouTube

extension ChannelUploads {
    /// The lengths the answer gave, by video id.
    var lengths: [String: Int] {
        Dictionary(videos.compactMap { video in video.durationSeconds.map { (video.id, $0) } }) { first, _ in first }
    }

    /// The videos a backfill of `count` brings: of the answer's first `count` (the channel's last
    /// uploads), those `library` does not hold and `arriving` does not bring, as ordinary videos,
    /// dated by the answer or, when it gives no date, a second apart in the answer's order just
    /// before the oldest video of the channel among `arriving` (else `now`).
    func backfill(_ count: Int, besides arriving: [Video], in library: Library, at now: Date) -> [Video] {
        let arrivingIDs = Set(arriving.map(\.id))
        let anchor = arriving.filter { $0.channelID == channelID }.map(\.published).min() ?? now
        let brought = videos.prefix(count).filter { library.video($0.id) == nil && !arrivingIDs.contains($0.id) }
        return ordinaryVideos(brought, datedBefore: anchor).map { video in
            var screened = video
            screened.title = PeerInput.title(video.title)
            return screened
        }
    }
}
