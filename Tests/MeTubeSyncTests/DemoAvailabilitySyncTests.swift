import Foundation
import Logging
import MeTubeCore
import MeTubeDemo
@testable import MeTubeDemoServer
import MeTubeServer
import MeTubeStore
import MeTubeSync
import TestSupport
import Testing

/// The demo (`metube-server --demo`, what `make run` serves) through a real hub on 127.0.0.1
/// into a real client store: its premieres wait under `upcoming`, never in `unwatched`.
@Suite struct DemoAvailabilitySyncTests {
    @Test func theDemosPremieresAreListedUnderUpcomingAndNotUnderUnwatched() async throws {
        // Given a hub seeded by the demo publisher, and a store following the demo's channels
        let directory = TemporaryDirectory("metube-demo-availability")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        let catalog = DemoCatalog(channelCount: 4, videoCount: 40, newest: Date())
        try await DemoPublisher(repository: hub.repository, library: catalog, logger: Logger(label: "demo")).seedIfEmpty()
        let store = try HubSyncTestSupport.store(in: directory, following: catalog.channels())

        // When it syncs
        #expect(await SyncEngine(store: store, configuration: HubSyncTestSupport.configuration(hub.url)).sync().error == nil)

        // Then the upcoming view lists the stream in progress, then the premieres by start
        let premieres = DemoPremieres.upcoming.sorted { $0.value < $1.value }.map { DemoCatalog.videoID($0.key) }
        let live = DemoCatalog.videoID(DemoPremieres.live)
        let upcoming = FeedQuery(filter: .upcoming).rows(in: store.library(), statusesKnown: true).map(\.video.id)
        #expect(upcoming == [live] + premieres)
        #expect(premieres.allSatisfy { store.library().video($0)?.scheduledStart != nil })
        // And unwatched shows every other video, the stream among them, and no premiere
        let unwatched = FeedQuery(filter: .unwatched).rows(in: store.library(), statusesKnown: true).map(\.video.id)
        #expect(unwatched.count == catalog.videoCount - premieres.count)
        #expect(unwatched.contains(live))
        #expect(Set(unwatched).isDisjoint(with: premieres))
    }
}
