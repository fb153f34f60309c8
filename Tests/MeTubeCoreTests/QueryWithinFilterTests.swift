import Foundation
import MeTubeCore
import Testing
import TestSupport

/// A query runs within its filter: the rows of a filter with a query are the rows of the filter
/// alone, cut by the query, whatever the videos' availability (upcoming, live, gone, private).
@Suite struct QueryWithinFilterTests {
    @Test func aQuerysRowsAreTheFiltersRowsCutByTheQuery() throws {
        var random = SplitMix64(seed: 0x6669_6C74_6572)
        let availabilities: [Availability] = [.available, .upcoming, .live, .gone, .privateVideo, .membersOnly]
        let soon = Date().addingTimeInterval(86_400)
        for round in 0..<120 {
            // Given a random library whose videos are in every availability, and a random query
            let sample = RandomQueryLibrary(videoCount: 1 + Int(random.next() % 120), channelCount: 1 + Int(random.next() % 6), random: &random)
            let videos = sample.library.videos.map { video in
                var video = video
                video.availability = random.next() % 2 == 0 ? .available : availabilities[Int(random.next() % UInt64(availabilities.count))]
                if video.availability == .upcoming { video.scheduledStart = soon }
                return video
            }
            let library = Library(channels: Array(sample.library.channels.values), videos: videos, markTable: sample.library.marks)
            let shape = QueryShape.random(depth: Int(random.next() % 4), channelCount: 6, withAge: false, random: &random)
            let query = try VideoQuery(parsing: shape.description)
            for filter in FeedFilter.allCases {
                // When the filter lists its rows alone, and with the query
                let alone = FeedQuery(filter: filter).rows(in: library, statusesKnown: true)
                var withQuery = FeedQuery(filter: filter)
                withQuery.query = query
                let queried = withQuery.rows(in: library, statusesKnown: true)
                // Then the query's rows are the filter's, cut by the query
                var context = QueryContext(library: library, statusesKnown: true)
                let expected = alone.filter { query.matches($0.video, in: &context) }.map(\.video.id)
                #expect(queried.map(\.video.id) == expected, "round \(round), filter \(filter): \(shape)")
            }
        }
    }
}
