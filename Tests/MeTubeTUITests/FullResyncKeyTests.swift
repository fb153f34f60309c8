import MeTubeCore
import Testing
@testable import MeTubeTUI

@Suite struct FullResyncKeyTests {
    @Test("R asks first; y starts a full resync, any other key cancels it")
    func fullResyncAsksFirst() {
        // Given a TUI with a configured sync
        var model = Fixture.model()
        _ = model.apply(.sync(.service(.videoSource, .idle(lastSynced: nil))))

        // When R is pressed, Then it only asks
        #expect(model.press(.character("R")).isEmpty)
        #expect(model.message?.text.contains("(y/n)") == true)

        // When the answer is n, Then nothing starts
        #expect(model.press(.character("n")).isEmpty)
        #expect(model.message?.text == "full resync cancelled")
        #expect(!model.isConfirmingFullResync)

        // When R then y, Then the full resync starts
        #expect(model.press(.character("R"), .character("y")) == [.fullResync])
    }

    @Test("R says sync is not configured when it is not")
    func fullResyncNeedsASync() {
        var model = Fixture.model()
        #expect(model.press(.character("R")).isEmpty)
        #expect(model.message?.text == "sync is not configured")
        #expect(!model.isConfirmingFullResync)
    }
}
