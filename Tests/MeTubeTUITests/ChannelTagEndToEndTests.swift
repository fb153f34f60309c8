import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `T` in the channels view of the real binary: the tags reach the store, pending for the status
/// sync.
@Suite("Channel tags in tmux")
struct ChannelTagEndToEndTests {
    @Test("tags edited with T are on disk, pending, and shown in the channels view")
    func tagsEditedInTheChannelsViewAreSaved() throws {
        // Given the TUI on a store following four channels
        let directory = TemporaryDirectory("metube-tui-tags")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 4, videoCount: 40, markCount: 0)
        let storeURL = try EndToEndTests.makeStore(library, in: directory)
        let tmux = try EndToEndTests.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }

        // When the first channel's tags are edited in the channels view
        try tmux.send("c")
        try tmux.waitFor { $0.split(separator: "\n").first?.contains("channels") == true }
        try tmux.send("T")
        try tmux.waitFor { $0.contains("tags of ") }
        try tmux.type("music, late night")
        try tmux.send("Enter")

        // Then the view shows them and says so
        try tmux.waitFor { $0.contains("#music") && $0.contains("tagged: music, late night") }
        try tmux.send("q")

        // And the store holds them on the channel and its subscription, pending for the mark sync
        let store = try Store.open(at: storeURL)
        let tagged = store.library().channels.values.filter { $0.tags == ["music", "late night"] }
        #expect(tagged.count == 1)
        let subscription = tagged.first.flatMap { store.library().subscription(of: $0.id, deviceID: store.syncSnapshot().deviceID) }
        #expect(subscription?.tags == ["music", "late night"])
        #expect(subscription?.syncState == .pending)
    }
}
