import Foundation
@testable import MeTubeCore
import Testing

@Suite struct AvailabilityTests {
    /// 9999-12-31T23:59:59Z, the last second a store holds.
    private static let endOf9999 = Date(timeIntervalSince1970: 253_402_300_799)

    private func video(_ availability: Availability, start: Date? = nil, published: Date = Date(timeIntervalSince1970: 1_790_000_000)) -> Video {
        Video(id: "aaaaaaaaaaa", channelID: "UC0123456789012345678901", title: "t", published: published, availability: availability, scheduledStart: start)
    }

    @Test func unwatchedLeavesOutUpcomingAndGoneAndTheUpcomingViewListsThemByStart() {
        // Given an upload, two premieres (the later one published first), a live stream and a removed video
        let now = Date()
        let base = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let channel = Channel(id: "UC0123456789012345678901", title: "c")
        func make(_ id: String, _ availability: Availability, minutesAgo: Double, startsIn: Double? = nil) -> Video {
            Video(id: id, channelID: channel.id, title: id, published: base.addingTimeInterval(-minutesAgo * 60),
                  availability: availability, scheduledStart: startsIn.map { base.addingTimeInterval($0 * 60) })
        }
        let library = Library(channels: [channel], videos: [
            make("upload00000", .available, minutesAgo: 5),
            make("later000000", .upcoming, minutesAgo: 10, startsIn: 600),
            make("sooner00000", .upcoming, minutesAgo: 1, startsIn: 30),
            make("onair000000", .live, minutesAgo: 20),
            make("removed0000", .gone, minutesAgo: 30),
        ])

        // When each built-in view is listed
        func ids(_ filter: FeedFilter) -> [String] { FeedQuery(filter: filter).rows(in: library, statusesKnown: true).map(\.video.id) }

        // Then unwatched has only what plays now, upcoming lists the live one then by start, all has everything
        #expect(ids(.unwatched) == ["upload00000", "onair000000"])
        #expect(ids(.upcoming) == ["onair000000", "sooner00000", "later000000"])
        #expect(Set(ids(.all)) == Set(library.videos.map(\.id)))
    }

    @Test(arguments: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 10), AvailabilityTests.endOf9999])
    func aScheduledStartIn1970OrIn9999NeverHidesAVideoForGood(start: Date) {
        // Given a premiere published long ago whose source gave an absurd start
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let premiere = video(.upcoming, start: start, published: now.addingTimeInterval(-90 * 86_400))

        // Then the start is not believed and the video is listed as watchable
        #expect(ScheduledStart.plausible(start, now: now) == nil)
        #expect(!premiere.isHiddenFromLists(now: now))
        #expect(FeedFilter.unwatched.admits(premiere, now: now, isAllView: false))
        #expect(!FeedFilter.upcoming.admits(premiere, now: now, isAllView: false))
    }

    @Test func aStartOutsideWhatTheStoreHoldsReadsAsUnknown() {
        #expect(video(.upcoming, start: Self.endOf9999).scheduledStart == nil)
        #expect(video(.upcoming, start: Date(timeIntervalSince1970: -5)).scheduledStart == nil)
        #expect(video(.upcoming, start: Date(timeIntervalSince1970: 1_790_000_000.75)).scheduledStart == Date(timeIntervalSince1970: 1_790_000_000))
    }

    @Test func anUnknownAvailabilityWordFromANewerPeerReadsAsAvailable() throws {
        let json = #"{"id":"aaaaaaaaaaa","channelID":"UC0123456789012345678901","title":"t","published":0,"isShortLink":false,"availability":"teleported"}"#
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Video.self, from: Data(json.utf8)).availability == .available)
        #expect(Availability(wire: nil) == .available)
        #expect(Availability(wire: "members-only") == .membersOnly)
    }

    @Test func anUpcomingVideoThatBecomesAvailableTakesItsRealPublishTimeAndAKnownStartIsKept() {
        // Given a premiere with a known start, then a feed copy without a start, then the available copy
        let start = Date(timeIntervalSince1970: 1_790_003_600)
        var library = Library(videos: [video(.upcoming, start: start)])
        library.upsert([video(.upcoming)])
        #expect(library.videos[0].scheduledStart == start)

        // When it is available, published at its real start
        library.upsert([video(.available, published: start)])

        // Then it is available at that time, and no longer carries the start
        #expect(library.videos[0].availability == .available)
        #expect(library.videos[0].published == start)
        #expect(library.videos[0].scheduledStart == nil)
    }

    @Test func availabilityAndTheFeedsCountsAddNoBytesToAVideo() {
        // The state's byte and the start's four bytes sit in the padding after `isShortLink`, and
        // the exact view and rating counts in the holes after `duration` and at the end, so a video
        // takes as much room in an array as before them (a stride of 136 bytes on the commit before availability).
        let afterShortLink = MemoryLayout<Video>.offset(of: \Video.isShortLink)! + 1
        #expect(MemoryLayout<Video>.offset(of: \Video.availability) == afterShortLink)
        #expect(MemoryLayout<Video>.stride == 136)
    }
}
