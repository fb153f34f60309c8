import Foundation
import MeTubeCore
import MeTubeDemo

/// Reproducible libraries for tests and benchmarks: the demo catalog's channels and videos, plus
/// marks on the oldest videos.
public struct SyntheticLibrary: Sendable {
    /// The channels and videos.
    public var catalog: DemoCatalog
    /// How many of the videos get a mark.
    public var markCount: Int

    /// Describes a library to generate.
    public init(channelCount: Int = 216, videoCount: Int = 10_000, markCount: Int = 10_000, seed: UInt64 = 42, newest: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        catalog = DemoCatalog(channelCount: channelCount, videoCount: videoCount, seed: seed, newest: newest)
        self.markCount = markCount
    }

    /// How many channels the library has.
    public var channelCount: Int { catalog.channelCount }
    /// How many videos the library has.
    public var videoCount: Int { catalog.videoCount }
    /// The newest video's publication date.
    public var newest: Date { catalog.newest }

    /// A channel id made from a number: `UC` and 22 id characters.
    public static func channelID(_ number: Int) -> String { DemoCatalog.channelID(number) }

    /// A video id made from a number: 11 id characters.
    public static func videoID(_ number: Int) -> String { DemoCatalog.videoID(number) }

    /// The library's channels.
    public func channels() -> [Channel] { catalog.channels() }

    /// The `index`-th video: deterministic, newest at index 0.
    public func video(_ index: Int) -> Video { catalog.video(index) }

    /// The library's videos, newest first.
    public func videos() -> [Video] { catalog.videos() }

    /// The marks: the oldest `markCount` videos, mostly watched.
    public func marks(deviceID: String = "synthetic") -> [Mark] {
        let videoCount = catalog.videoCount
        return (0..<min(markCount, videoCount)).map { offset in
            let index = videoCount - 1 - offset
            let status: WatchStatus = index % 7 == 0 ? .skipped : (index % 11 == 0 ? .unwatched : .watched)
            return Mark(
                videoID: DemoCatalog.videoID(index), status: status,
                hlc: HybridTimestamp(millis: Int64(catalog.newest.timeIntervalSince1970 * 1000) - Int64(index) * 1000),
                deviceID: deviceID, syncState: .synced
            )
        }
    }

    /// The whole library, as the store holds it in memory: descriptions stay on disk, so the
    /// library holds none.
    public func library() -> Library {
        Library(channels: channels(), videos: videos().map { video in
            var video = video
            video.description = nil
            return video
        }, marks: marks())
    }
}
