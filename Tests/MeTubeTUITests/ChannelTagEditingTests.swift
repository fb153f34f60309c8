import Foundation
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeTUI

/// `T` in the channels view edits the selected channel's tags.
@Suite("Channel tag editing")
struct ChannelTagEditingTests {
    static func channelsView() -> ScreenModel {
        var library = Fixture.library
        let channel = SyntheticLibrary.channelID(1)
        library.upsert(Channel(id: channel, tags: ["tech"]))
        library.apply(Subscription(channelID: channel, followed: true, tags: ["tech"], hlc: HybridTimestamp(millis: 1), deviceID: "d", syncState: .synced))
        var model = Fixture.model()
        _ = model.apply(.libraryChanged(library))
        model.press(.character("c"))
        return model
    }

    /// Selects the channel `name` in the channels view.
    static func select(_ name: String, in model: inout ScreenModel) {
        while model.channelList[model.channelCursor.selection].name != name { model.press(.character("j")) }
    }

    @Test("T shows the channel's tags in a prompt; Enter saves the edited list")
    func editingSavesTheTags() {
        var model = Self.channelsView()
        Self.select("Digital Foundry", in: &model)

        // When T is pressed and a tag typed after the existing one
        model.press(.character("T"))
        let prompt = ScreenRenderer.render(model).text(ofRow: 11)
        model.type(", live music")
        let effects = model.handle(.enter)

        // Then the prompt showed the channel and its tags, and Enter asks to save both tags
        #expect(prompt.hasPrefix("tags of Digital Foundry: tech"), "\(prompt)")
        #expect(effects == [.setTags(channelID: SyntheticLibrary.channelID(1), tags: ["tech", "live music"])])
        #expect(model.tagInput == nil)
    }

    @Test("Esc leaves the tags alone, and a tag with a control character is refused")
    func escapeAndBadTags() {
        var model = Self.channelsView()
        Self.select("Digital Foundry", in: &model)
        model.press(.character("T"))
        model.type(", more")
        #expect(model.handle(.escape).isEmpty)
        #expect(model.tagInput == nil)

        model.press(.character("T"))
        model.type(", bad\u{7}")
        #expect(model.handle(.enter).isEmpty)
        #expect(model.message?.isError == true)
    }

    @Test("the help lists T for the channels view")
    func helpListsTheKey() {
        #expect(Action.editTags.info.keys == ["T"])
        #expect(KeyMap().action(for: .character("T")) == .editTags)
    }
}
