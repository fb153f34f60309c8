import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// Views, `A` and `U` in the real `metube` binary in tmux, with the marks checked on disk.
@Suite("Saved views end to end in tmux")
struct SavedViewsEndToEndTests {
    @Test("v and a number key switch to a saved view; A marks it all in one write; U puts every mark back")
    func switchMarkAllUndo() throws {
        // Given a store of 120 videos of 6 channels and a saved view of the first channel
        let directory = TemporaryDirectory("metube-tui-views")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 6, videoCount: 120, markCount: 0)
        let storeURL = try EndToEndTests.makeStore(library, in: directory)
        let channel = library.channels()[0]
        let ofChannel = Set(library.videos().filter { $0.channelID == channel.id }.map(\.id))
        try "[views.first]\nquery = \"channel:\(channel.id)\"\n".write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let tmux = try EndToEndTests.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }

        // When the picker opens, Then it lists the saved view after the built-in ones with its counts
        try tmux.send("v")
        let picker = try tmux.waitFor { $0.contains("views (unseen, videos)") && $0.contains("first") }
        #expect(EndToEndTests.line(7, of: picker).contains("\(ofChannel.count)"))

        // When 7 picks the saved view, Then the header and the status line name it
        try tmux.send("7")
        try tmux.waitFor { EndToEndTests.line(0, of: $0).contains("metube · first") && $0.contains("view first │ \(ofChannel.count) of 120") }

        // When A is answered with y, Then every video of the view is skipped on disk, nothing else
        try tmux.send("A")
        try tmux.waitFor { $0.contains("Mark \(ofChannel.count) videos of first skipped? (y/n)") }
        try tmux.send("y")
        try tmux.waitFor { $0.contains("marked \(ofChannel.count) videos of first skipped") }
        let marked = try Store.open(at: storeURL).library().marks
        #expect(Set(marked.values.map(\.videoID)) == ofChannel)
        #expect(marked.values.allSatisfy { $0.status == .skipped && $0.syncState == .pending })

        // When U is pressed, Then every one of them is unwatched again on disk
        try tmux.send("U")
        try tmux.waitFor { $0.contains("undid \(ofChannel.count) videos of first skipped") }
        let undone = try Store.open(at: storeURL).library().marks
        #expect(Set(undone.values.map(\.videoID)) == ofChannel)
        #expect(undone.values.allSatisfy { $0.status == .unwatched })

        try tmux.send("q")
        #expect(try EndToEndTests.waitForExit(tmux) == 0)
    }
}
