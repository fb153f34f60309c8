import Foundation
import MeTubeCore
import TestSupport
import Testing
@testable import MeTubeTUI

/// Hints on screen come from the action table and the bindings in force, and no control
/// character from a title reaches the screen.
@Suite("Hints and display safety")
struct HintTests {
    /// Help on `h`, keep-mine on `K`, take-theirs on `T`, search on `C-s`.
    static let rebound = TUIConfig(keyBindings: [
        .help: [.character("h")], .keepMine: [.character("K")], .takeTheirs: [.character("T")], .search: [.control("s")],
    ])

    @Test("hints name the keys in force, not the defaults")
    func hintsFollowTheBindings() {
        var model = Fixture.model(config: Self.rebound)
        model.press(.character("Z"))
        #expect(model.message?.text == "Z does nothing here; h shows the keys")
        model.press(.character("n"))
        #expect(model.message?.text == "no search yet; C-s starts one")
        model.press(.character("C"))
        #expect(ScreenRenderer.render(model).text(ofRow: 0).contains("conflicts (K keeps mine, T takes theirs)"))
    }

    @Test("a hint for an action without a key is left out, never replaced by a default key")
    func unboundActionsGiveNoHint() {
        let config = TUIConfig(keyBindings: [.moveDown: [.character("?")], .moveUp: [.character("f")], .pageDown: [.character("C")]])
        var model = Fixture.model(config: config)
        #expect(!ScreenRenderer.render(model).text.contains("? help"))
        model.press(.character("Z"))
        #expect(model.message?.text == "Z does nothing here")
        model.press(.character("m"))
        #expect(model.message?.text == "only in the conflicts view")
        let empty = ScreenRenderer.render(ScreenModel(library: Library(), size: Fixture.size, config: config, now: Fixture.now, statusesKnown: true)).text
        #expect(empty.contains("nothing here") && !empty.contains("changes the filter"))
    }

    @Test("the empty channels view names commands that exist")
    func emptyChannelsView() {
        var model = ScreenModel(library: Library(), size: Fixture.size, now: Fixture.now, timeZone: TimeZone(identifier: "UTC")!, statusesKnown: true)
        model.press(.character("c"))
        let text = ScreenRenderer.render(model).text
        #expect(text.contains("metube channels add"))
        #expect(!text.contains("metube add"))
    }

    @Test("titles and channel names with ESC, CR, C1 and bidi controls are drawn without them")
    func hostileTitles() {
        let channel = Channel(id: SyntheticLibrary.channelID(1), title: "Evil\u{1B}[2J\u{202E}Chan")
        let video = Video(id: SyntheticLibrary.videoID(0), channelID: channel.id, title: "Cats\u{1B}]0;pwned\u{07}\r\u{9B}31m\nnext",
                          published: Fixture.now)
        let model = ScreenModel(library: Library(channels: [channel], videos: [video]), size: Fixture.size, now: Fixture.now,
                                timeZone: TimeZone(identifier: "UTC")!, statusesKnown: true)
        let grid = ScreenRenderer.render(model)
        #expect(!grid.cells.contains { $0.character.unicodeScalars.contains(where: DisplayText.isControl) })
        #expect(grid.text(ofRow: 1).contains("Cats]0;pwned 31m next"))
    }
}
