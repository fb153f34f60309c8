import Foundation
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// `skip` rules mark the new videos a hub sync brings in: once, never over the user's mark.
@Suite struct RuleSyncTests {
    typealias Support = HubSyncTestSupport

    @Test func skipRulesMarkNewVideosOnceAndNeverOverTheUser() async throws {
        // Given a hub with 4 channels' videos, a store following them with one video already
        // marked watched by the user, and a skip rule for channels 0 and 1 behind a hide rule for 1
        let library = SyntheticLibrary(channelCount: 4, videoCount: 40, markCount: 0, newest: Date())
        let directory = TemporaryDirectory("metube-rule-sync")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(library)
        let store = try Support.store(in: directory, following: library.channels())
        let channel0 = library.channels()[0].id
        let ofChannel0 = library.videos().filter { $0.channelID == channel0 }.map(\.id)
        _ = try store.transaction { $0.mark(ofChannel0[0], as: .watched) }
        let channel1 = library.channels()[1].id
        var configuration = Support.configuration(hub.url)
        configuration.rules = FeedRules([
            FeedRule(name: "hide channel 1", query: try VideoQuery(parsing: "channel:\(channel1)"), action: .hide),
            FeedRule(name: "skip channel 0", query: try VideoQuery(parsing: "channel:\(channel1) or channel:\(channel0)"), action: .skip),
        ])
        let engine = SyncEngine(store: store, configuration: configuration)

        // When it syncs
        #expect(await engine.sync().error == nil)

        // Then channel 0's other new videos are skipped by the rule, pending, and say so; the
        // user's mark stands; channel 1's (their first matching rule hides) are unmarked
        let marks = store.library().marks
        #expect(marks[ofChannel0[0]]?.status == .watched)
        #expect(marks[ofChannel0[0]]?.rule == nil)
        #expect(store.library().videos.filter { $0.channelID == channel1 }.allSatisfy { marks[$0.id] == nil })
        for id in ofChannel0.dropFirst() {
            #expect(marks[id]?.status == .skipped)
            #expect(marks[id]?.rule == "skip channel 0")
            #expect(marks[id]?.syncState == .pending)
        }
        #expect(marks.count == ofChannel0.count)
        // And the rule's name reads back from the files
        let reopened = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))
        #expect(reopened.library().marks[ofChannel0[1]]?.rule == "skip channel 0")

        // When the user unmarks one and a full resync brings every video in again
        try store.mark(ofChannel0[1], as: .unwatched)
        try store.forgetSyncPositions()
        #expect(await engine.sync().error == nil)

        // Then the rule does not run twice: the user's mark stands
        #expect(store.library().marks[ofChannel0[1]]?.status == .unwatched)
        #expect(store.library().marks[ofChannel0[1]]?.rule == nil)
    }
}
