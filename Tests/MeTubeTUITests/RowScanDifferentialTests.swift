import Foundation
import MeTubeCore
import MeTubeDemo
import MeTubePlayer
@testable import MeTubeTUI
import TestSupport
import Testing

/// The feed's row scan and the view picker's counts read compact columns (statuses,
/// ``VideoFlags``, `hide` rules computed once per library); they must select exactly what the
/// straightforward evaluation (``FeedQuery/rows(in:limit:)``, what `metube list` runs) selects.
@Suite("Row scan against the straightforward filter")
struct RowScanDifferentialTests {
    /// `sample`'s library with random availabilities (upcoming ones starting in the coming weeks,
    /// so none is overdue) and a Short or two.
    private static func withAvailabilities(_ sample: RandomQueryLibrary, now: Date, random: inout SplitMix64) -> Library {
        let library = sample.library
        let videos = library.videos.map { video in
            var video = video
            video.availability = Availability.allCases[Int(random.next() % UInt64(Availability.allCases.count))]
            if video.availability == .upcoming, random.next() % 4 != 0 { video.scheduledStart = now.addingTimeInterval(Double(1 + random.next() % 30) * 86_400) }
            return video
        }
        var changed = Library(channels: Array(library.channels.values), videos: videos, marks: library.marks.values)
        for position in library.playbackPositions.values { changed.apply(position) }
        return changed
    }

    /// A random query without title regexes: ICU's time limit can stop one on a loaded machine,
    /// which would make the two evaluations differ for a reason this test is not about.
    private static func shape(depth: Int, channelCount: Int, random: inout SplitMix64) -> String {
        while true {
            let text = QueryShape.random(depth: depth, channelCount: channelCount, random: &random).description
            if !text.contains("title~") { return text }
        }
    }

    @Test("every view's rows and counts agree with the straightforward filter over random libraries, rules, channels and Shorts choices")
    func rowsAndCountsAgree() throws {
        var random = SplitMix64(seed: 0x726F_7773)
        let now = Date()
        for round in 0..<60 {
            // Given a random library, saved views, rules (some hiding), a channel and a Shorts choice
            let channelCount = 1 + Int(random.next() % 5)
            let sample = RandomQueryLibrary(videoCount: 1 + Int(random.next() % 150), channelCount: channelCount, random: &random)
            let library = Self.withAvailabilities(sample, now: now, random: &random)
            var config = TUIConfig()
            config.views = SavedView.builtIn + (0..<3).map { number in
                SavedView(name: "q\(number)", query: try! VideoQuery(parsing: Self.shape(depth: 3, channelCount: channelCount, random: &random)))
            }
            config.rules = FeedRules((0..<Int(random.next() % 4)).map { number in
                FeedRule(name: "r\(number)", query: try! VideoQuery(parsing: Self.shape(depth: 2, channelCount: channelCount, random: &random)),
                         action: random.next() % 3 == 0 ? .skip : .hide)
            })
            var model = ScreenModel(library: library, size: TerminalSize(width: 100, height: 12), config: config, now: now, statusesKnown: random.next() % 4 != 0)
            if random.next() % 3 == 0 { model.query.channelID = DemoCatalog.channelID(Int(random.next() % UInt64(channelCount))) }
            if random.next() % 2 == 0 { model.query.hideShorts = true }

            // When the picker counts every view, and each view is switched to and scanned
            model.countViews()
            for (index, view) in model.views.enumerated() {
                model.switchToView(index)
                model.finishViewScan()

                // Then the rows and the counts are the straightforward filter's
                var brute = FeedQuery(filter: view.filter, channelID: model.query.channelID, hideShorts: model.query.hideShorts)
                brute.query = view.query
                brute.rules = config.rules
                var context = QueryContext(library: library, statusesKnown: model.statusesKnown, now: now)
                let expected = brute.rows(in: &context)
                #expect(model.rows.map { library.videos[$0].id } == expected.map(\.video.id), "round \(round), view \(view.name)")
                let unseen = expected.filter { $0.status == .unwatched || $0.status == .unknown }.count
                #expect(model.viewCounts[index] == ViewCount(unseen: unseen, total: expected.count), "round \(round), view \(view.name)")
            }
        }
    }

    @Test("a saved playback position moves a video into the in-progress view without a library change")
    func progressFlagFollowsPlayback() throws {
        let library = SyntheticLibrary(channelCount: 3, videoCount: 40, markCount: 0).library()
        var model = ScreenModel(library: library, size: TerminalSize(width: 100, height: 12), statusesKnown: true)
        model.switchToView(model.views.firstIndex { $0.query == nil && $0.filter == .inProgress }!)
        #expect(model.rows.isEmpty)
        let videoID = library.videos[5].id
        let saved = PlaybackPosition(videoID: videoID, seconds: 90, hlc: HybridTimestamp(millis: 1), deviceID: "d")
        _ = model.apply(.playback(PlaybackUpdate(videoID: videoID, seconds: 90, duration: nil, isPaused: false, saved: saved)))
        model.rebuildRows()
        #expect(model.rows.map { library.videos[$0].id } == [videoID])
    }
}
