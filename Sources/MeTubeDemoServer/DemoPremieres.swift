import Foundation
import MeTubeCore

/// The demo's videos that are not watchable yet: a few of the newest catalog videos are premieres
/// announced for later (upcoming, with a scheduled start and no views, as YouTube's feed shows
/// them) and one is a stream in progress, so that `make run` shows them under `upcoming`, and not
/// under `unwatched`.
enum DemoPremieres {
    /// The catalog indexes of the premieres, and how long after the catalog's newest video each starts.
    static let upcoming: [Int: TimeInterval] = [2: 2 * 3600, 5: 26 * 3600, 9: 3 * 86_400]
    /// The catalog index of the stream in progress.
    static let live = 7

    /// `video`, the `index`-th of a catalog whose newest video is from `newest`, with its availability.
    static func apply(to video: Video, index: Int, newest: Date) -> Video {
        var video = video
        if let start = upcoming[index] {
            video.availability = .upcoming
            video.scheduledStart = newest.addingTimeInterval(start)
            video.views = 0
            video.starRatings = 0
        } else if index == live {
            video.availability = .live
        }
        return video
    }
}
