import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeTUI

@Suite("Screen model: the watch-later queue")
struct ScreenModelQueueTests {
    let id = SyntheticLibrary.videoID

    @Test("l queues the selected video at once and asks the store; l again takes it out")
    func toggle() {
        var model = Fixture.model()
        #expect(model.press(.character("l")) == [.queue(.add(id(0)))])
        #expect(model.library.queuedVideoIDs == [id(0)])
        #expect(model.message?.text.contains("1 video in the queue") == true)
        #expect(model.press(.character("l")) == [.queue(.remove(id(0)))])
        #expect(model.library.queuedVideoIDs.isEmpty)
    }

    @Test("L shows the queue in its order, not the feed's; L or Esc goes back to the feed")
    func view() {
        var model = Fixture.model()
        // Given the third row queued first, then the first row
        model.press(.character("j"), .character("j"), .character("l"), .character("g"), .character("l"))
        // When the queue is shown
        model.press(.character("L"))
        // Then it holds them in the order queued
        #expect(model.showsQueue)
        #expect(Fixture.rowIDs(model) == [id(3), id(0)])
        model.press(.escape)
        #expect(!model.showsQueue)
        #expect(Fixture.rowIDs(model) == [id(0), id(1), id(3), id(5)])
        model.press(.character("L"), .character("L"))
        #expect(!model.showsQueue)
    }

    @Test("J and K move the selected video in the queue while the details pane is closed, and scroll the pane when it is open")
    func reorder() {
        var model = Fixture.model()
        model.press(.character("l"), .character("j"), .character("l"), .character("j"), .character("l"), .character("L"))
        #expect(Fixture.rowIDs(model) == [id(0), id(1), id(3)])
        // When the first is moved down twice
        #expect(model.press(.character("J")) == [.queue(.swap(id(0), id(1)))])
        model.press(.character("J"))
        // Then it is last and still selected
        #expect(Fixture.rowIDs(model) == [id(1), id(3), id(0)])
        #expect(model.selectedVideo?.id == id(0))
        // And K moves it back up; at the top K does nothing
        model.press(.character("K"), .character("K"), .character("K"))
        #expect(Fixture.rowIDs(model) == [id(0), id(1), id(3)])
        // With the pane open, J scrolls the description and the queue stays as it is
        model.press(.tab)
        #expect(model.press(.character("J")).isEmpty)
        #expect(Fixture.rowIDs(model) == [id(0), id(1), id(3)])
    }

    @Test("the store's entries replace those shown at once; a video marked watched leaves the queue")
    func storeEntries() {
        var model = Fixture.model()
        model.press(.character("l"))
        let stored = QueueEntry(videoID: id(0), queuedAt: 5, hlc: HybridTimestamp(millis: 1_900_000_000_000), deviceID: "laptop")
        _ = model.apply(.queued([stored]))
        #expect(model.library.queue[id(0)] == stored)
        model.press(.character("L"), .character("w"))
        _ = model.apply(.libraryChanged({
            var library = model.library
            library.apply(Mark(videoID: id(0), status: .watched, hlc: HybridTimestamp(millis: 1_900_000_000_001), deviceID: "laptop"))
            return library
        }()))
        #expect(Fixture.rowIDs(model).isEmpty)
    }
}
