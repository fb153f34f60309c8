import Foundation
import MeTubeCore
import TestSupport
import Testing
@testable import MeTubeTUI

@Suite("Availability on screen")
struct AvailabilityScreenTests {
    private static let channel = Channel(id: SyntheticLibrary.channelID(1), title: "NASA")

    private static func video(_ id: String, _ availability: Availability, minutesAgo: Double, startsInMinutes: Double? = nil) -> Video {
        Video(id: id, channelID: channel.id, title: "\(id) title", published: Fixture.now.addingTimeInterval(-minutesAgo * 60), duration: 600,
              availability: availability, scheduledStart: startsInMinutes.map { Fixture.now.addingTimeInterval($0 * 60) })
    }

    private static let library = Library(channels: [channel], videos: [
        video("upload00000", .available, minutesAgo: 5),
        video("premiere000", .upcoming, minutesAgo: 10, startsInMinutes: 125),
        video("onair000000", .live, minutesAgo: 20),
        video("removed0000", .gone, minutesAgo: 30),
        video("hidden00000", .privateVideo, minutesAgo: 40),
    ])

    private func model(_ library: Library = Self.library, filter: FeedFilter = .unwatched) -> ScreenModel {
        var model = ScreenModel(library: library, size: Fixture.size, now: Fixture.now, timeZone: TimeZone(identifier: "UTC")!, statusesKnown: true)
        model.query.filter = filter
        model.rebuildRows()
        return model
    }

    @Test("unwatched shows what plays now; live is marked")
    func unwatchedLeavesOutUpcomingAndGone() {
        let model = model()
        #expect(Fixture.rowIDs(model) == ["upload00000", "onair000000"])
        let screen = ScreenRenderer.render(model)
        #expect(screen.text(ofRow: 2).hasSuffix("live"))
    }

    @Test("the upcoming view lists the premiere with its countdown")
    func upcomingViewCountsDown() {
        let model = model(filter: .upcoming)
        #expect(Fixture.rowIDs(model) == ["onair000000", "premiere000"])
        let row = ScreenRenderer.render(model).text(ofRow: 2)
        #expect(row.contains("◷"))
        #expect(row.hasSuffix("in 2 h"))
    }

    @Test("all shows gone videos dimmed with their reason")
    func allShowsGoneWithReason() {
        let model = model(filter: .all)
        #expect(Fixture.rowIDs(model).count == 5)
        let screen = ScreenRenderer.render(model)
        #expect(screen.text(ofRow: 4).hasSuffix("removed"))
        #expect(screen.text(ofRow: 5).hasSuffix("private"))
        let titleCell = screen.row(4).first { $0.character == "r" }
        #expect(titleCell?.style == .dim)
    }

    @Test("Enter on an upcoming video says when it starts and opens nothing")
    func enterOnUpcomingSaysWhenItStarts() {
        var model = model(filter: .upcoming)
        model.press(.character("j"))
        let effects = model.press(.enter)
        #expect(effects.isEmpty)
        #expect(model.message?.text == "not started yet: it starts today at 16:18")
    }

    @Test("a premiere that becomes available enters unwatched and raises the new notice")
    func availablePremiereCountsAsNew() {
        var model = model()
        var changed = Self.library
        changed.upsert([Self.video("premiere000", .available, minutesAgo: 1)])
        _ = model.apply(.libraryChanged(changed))
        #expect(Fixture.rowIDs(model) == ["premiere000", "upload00000", "onair000000"])
        #expect(model.newCount == 1)
    }
}
