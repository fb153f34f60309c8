import Foundation
import MeTubeCore
import Testing
@testable import MeTubeTUI

/// The pane's line of feed counts: shown when the feed gave them, absent otherwise, and never a
/// hostile value (out-of-range counts are unknown).
@Suite("Details pane counts")
struct DetailsCountsTests {
    /// The fixture model with the pane open on the newest video, which has `views` and `ratings`.
    private static func model(views: Int?, ratings: Int?) -> ScreenModel {
        var videos = Fixture.videos
        videos[0].views = views
        videos[0].starRatings = ratings
        var model = ScreenModel(
            library: Library(channels: Fixture.channels, videos: videos, marks: Fixture.marks), size: DetailsPaneTests.wide,
            config: TUIConfig(), unicode: true, now: Fixture.now, timeZone: TimeZone(identifier: "UTC")!, statusesKnown: true)
        model.press(.character("f"), .tab)
        return model
    }

    @Test("views and ratings from the feed are shown under the date when known")
    func shown() {
        let text = ScreenRenderer.render(Self.model(views: 23_088, ratings: 1_580)).text
        #expect(text.contains("23,088 views · 1,580 ratings"), "screen was:\n\(text)")
        let viewsOnly = ScreenRenderer.render(Self.model(views: 1, ratings: nil)).text
        #expect(viewsOnly.contains("1 view"))
        #expect(!viewsOnly.contains(/\d ratings?/))
    }

    @Test("unknown, negative and huge counts show no counts line")
    func hostile() {
        for (views, ratings) in [(nil, nil), (-5, -1), (Int.max, 1 << 60)] as [(Int?, Int?)] {
            let text = ScreenRenderer.render(Self.model(views: views, ratings: ratings)).text
            #expect(!text.contains(/\d views?/) && !text.contains(/\d ratings?/), "screen was:\n\(text)")
        }
    }
}
