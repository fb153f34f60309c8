import Foundation
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeTUI

/// The channels view's subscription badges follow the mark-sync service as a video's do.
@Suite("Channels view sync badges")
struct ChannelsViewSyncBadgeTests {
    @Test("a pending follow shows offline while the status service is unreachable, and pending again once it answers")
    func pendingFollowShowsOfflineWhenTheServiceIsUnreachable() {
        // Given a follow not yet pushed, and one the service holds
        var library = Fixture.library
        library.apply(Subscription(channelID: SyntheticLibrary.channelID(1), followed: true, hlc: HybridTimestamp(millis: 1), deviceID: "d", syncState: .pending))
        library.apply(Subscription(channelID: SyntheticLibrary.channelID(3), followed: true, hlc: HybridTimestamp(millis: 1), deviceID: "d", syncState: .synced))
        var model = Fixture.model()
        _ = model.apply(.libraryChanged(library))
        model.press(.character("c"))

        // When the mark-sync service cannot be reached
        _ = model.apply(.sync(.service(.markSyncService, .offline(.init(since: Fixture.now.addingTimeInterval(-600))))))
        let offline = (1...3).map { ScreenRenderer.render(model).text(ofRow: $0) }

        // Then the pending follow shows the offline badge and the synced one stays synced
        #expect(offline.contains { $0.contains("✗ Digital Foundry") }, "\(offline)")
        #expect(offline.contains { $0.contains("✓ Kitchen Synth") })

        // And once the service answers, it is pending again
        _ = model.apply(.sync(.service(.markSyncService, .idle(lastSynced: Fixture.now))))
        let online = (1...3).map { ScreenRenderer.render(model).text(ofRow: $0) }
        #expect(online.contains { $0.contains("↻ Digital Foundry") }, "\(online)")
    }
}
