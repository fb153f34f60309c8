@testable import MeTubeCore
import Foundation
import Testing

/// A video's view and rating counts read back exactly (issue 37.3: 123,456,789 ratings read back
/// as 123,404,288, 2^49 and 2^50 both as 2,197,949,513,728), in a ``Video`` no larger than before.
@Suite struct ExactCountTests {
    /// The counts whose neighbours a lossy form confuses: the edges of 24, 32, 49–50 and 53 bits,
    /// and the figures.
    static let boundaries = [
        0, 1, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 49, (1 << 49) + 1, 1 << 50, (1 << 50) + 1,
        (1 << 53) - 2, (1 << 53) - 1, 123_456_789, 99_999_999_999,
    ]
    /// Counts no source may set: negative ones and those above 2^53 − 1 read as unknown (no count).
    static let outOfRange = [-1, -(1 << 53), Int.min, 1 << 53, (1 << 53) + 1, 1 << 56, Int.max]

    private static func video(views: Int?, starRatings: Int?) -> Video {
        Video(id: "dQw4w9WgXcQ", channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0), views: views, starRatings: starRatings)
    }

    @Test(arguments: boundaries)
    func aCountAtAnEdgeReadsBackExactlyAsViewsAndAsRatings(count: Int) {
        let video = Self.video(views: count, starRatings: count)
        #expect(video.views == count)
        #expect(video.starRatings == count)
    }

    @Test func everyCountInRangeReadsBackExactly() {
        var random = SplitMix64(seed: 0x636F_756E_74)
        for _ in 0..<50_000 {
            let count = Int(random.next() >> 11) >> Int(random.next() % 53)
            var video = Self.video(views: count, starRatings: nil)
            video.starRatings = count
            #expect(video.views == count && video.starRatings == count, "\(count)")
        }
    }

    @Test(arguments: outOfRange)
    func aNegativeOrTooLargeCountIsNoCount(count: Int) {
        let video = Self.video(views: count, starRatings: count)
        #expect(video.views == nil && video.starRatings == nil)
        #expect(video == Self.video(views: nil, starRatings: nil))
    }

    @Test func equalCountsMakeEqualVideosAndDifferentOnesDoNot() {
        #expect(Self.video(views: 1 << 50, starRatings: 7) == Self.video(views: 1 << 50, starRatings: 7))
        #expect(Self.video(views: 1 << 49, starRatings: 7) != Self.video(views: 1 << 50, starRatings: 7))
        #expect(Self.video(views: 0, starRatings: nil) != Self.video(views: nil, starRatings: nil))
        #expect(Set([Self.video(views: 1 << 49, starRatings: 1), Self.video(views: 1 << 50, starRatings: 1)]).count == 2)
    }

    @Test func sevenBytesHoldEveryCountUpToTheLargestAndNoMore() {
        #expect(MemoryLayout<ExactCount>.size == 7 && MemoryLayout<ExactCount>.alignment == 1)
        #expect(ExactCount(ExactCount.largest).value == ExactCount.largest)
        #expect(ExactCount(ExactCount.largest + 1) == .unknown && ExactCount(-1) == .unknown && ExactCount(nil).value == nil)
        #expect(FeedLimits.maxCount < ExactCount.largest)
    }

    @Test func exactCountsAddNoBytesToAVideo() {
        // 136 bytes a video, as with the two- and four-byte lossy counts before.
        #expect(MemoryLayout<Video>.size <= 136)
        #expect(MemoryLayout<Video>.stride == 136)
    }
}
