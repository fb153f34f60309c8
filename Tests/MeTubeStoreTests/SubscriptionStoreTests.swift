import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

@Suite struct SubscriptionStoreTests {
    private let first = "UC" + String(repeating: "a", count: 22)
    private let second = "UC" + String(repeating: "b", count: 22)

    @Test func followsUnfollowsAndTagsReadBackFromTheJournalAndFromSnapshots() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a store that follows two channels, tags one, and unfollows the other
        let store = try Store.open(at: directory.url)
        try store.transaction { transaction in
            transaction.follow(Channel(id: first, title: "First"))
            transaction.follow(Channel(id: second))
        }
        _ = try store.transaction { $0.setTags(["music", "live"], of: first) }
        try store.transaction { $0.unfollow(second) }
        let subscriptions = store.library().subscriptions

        // Then the channel is tagged and pending, the unfollow is kept as a pending tombstone
        #expect(store.library().channels[first]?.tags == ["music", "live"])
        #expect(subscriptions[first]?.tags == ["music", "live"] && subscriptions[first]?.syncState == .pending)
        #expect(store.library().channels[second] == nil)
        #expect(subscriptions[second]?.followed == false)
        // And a reopened store reads them back from the journal, and again after compaction
        #expect(try Store.open(at: directory.url).library().subscriptions == subscriptions)
        try store.compact()
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.library().subscriptions == subscriptions)
        // (channels compared by what they say: a date made now reads back within a microsecond)
        #expect(reopened.library().channels.mapValues { [$0.title, $0.tags?.joined(separator: ",")] } == store.library().channels.mapValues { [$0.title, $0.tags?.joined(separator: ",")] })
        #expect(reopened.library().channels.mapValues { abs($0.addedAt.timeIntervalSince(store.library().channels[$0.id]!.addedAt)) < 1e-6 }.values.allSatisfy { $0 })
    }

    @Test func tagsAreLeftAloneForAChannelNotFollowedAndTaggingKeepsTheFollowsClock() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        #expect(try store.transaction { $0.setTags(["x"], of: first) } == false)
        try store.transaction { $0.follow(Channel(id: first)) }
        let followed = try #require(store.library().subscriptions[first])
        _ = try store.transaction { $0.setTags(["x", "x", "y"], of: first) }
        let tagged = try #require(store.library().subscriptions[first])
        #expect(tagged.tags == ["x", "y"])
        #expect(tagged.hlc == followed.hlc)
    }

    @Test func boundedTagsDropWhatIsUnusable() {
        let tags = ChannelTags.bounded(["  music ", "music", "", "\u{1b}[31mred", String(repeating: "x", count: 65)] + (0..<200).map { "t\($0)" })
        #expect(tags.first == "music")
        #expect(tags.count == ChannelTags.maxCount)
        #expect(!tags.contains { $0.contains("\u{1b}") || $0.count > ChannelTags.maxCharacters })
    }
}
