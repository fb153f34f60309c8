import Foundation
import Testing
@testable import MeTubeCore

/// Sponsor segments from a hostile answer screened before they are skipped, the skipper's
/// decisions, and the `[sponsorblock]` settings.
@Suite struct SponsorSegmentTests {
    private let both = ["sponsor", "selfpromo"]

    @Test func badTimesAreDroppedAndTheDurationCutsTheRest() {
        let candidates = [
            SponsorSegment(start: 10, end: 5, category: "sponsor"),            // start > end
            SponsorSegment(start: .nan, end: 20, category: "sponsor"),         // NaN
            SponsorSegment(start: 3, end: .infinity, category: "sponsor"),     // infinite
            SponsorSegment(start: -4, end: 2, category: "sponsor"),            // before the start
            SponsorSegment(start: 700, end: 720, category: "sponsor"),         // past the duration
            SponsorSegment(start: 30, end: 30.2, category: "sponsor"),         // too short to skip
            SponsorSegment(start: 590, end: 640, category: "sponsor"),         // runs past the end: cut
            SponsorSegment(start: 40, end: 50, category: "music_offtopic"),    // not asked for
            SponsorSegment(start: 60, end: 70, category: "<script>"),          // not a category
            SponsorSegment(start: 32, end: 75, category: "selfpromo"),
        ]
        let screened = SponsorSegment.screened(candidates, categories: both + ["<script>"], duration: 600)
        #expect(screened == [SponsorSegment(start: 32, end: 75, category: "selfpromo"), SponsorSegment(start: 590, end: 600, category: "sponsor")])
    }

    @Test func overlappingSegmentsAreMergedIntoOne() {
        let candidates = [
            SponsorSegment(start: 20, end: 40, category: "sponsor"),
            SponsorSegment(start: 10, end: 25, category: "selfpromo"),
            SponsorSegment(start: 40, end: 45, category: "sponsor"),
            SponsorSegment(start: 100, end: 110, category: "sponsor"),
            SponsorSegment(start: 102, end: 104, category: "sponsor"),
        ]
        #expect(SponsorSegment.screened(candidates, categories: both, duration: nil) == [
            SponsorSegment(start: 10, end: 45, category: "selfpromo"), SponsorSegment(start: 100, end: 110, category: "sponsor"),
        ])
    }

    @Test func tenThousandSegmentsKeepAtMostTheFirstHundred() {
        let candidates = (0..<10_000).map { SponsorSegment(start: Double($0) * 2, end: Double($0) * 2 + 1, category: "sponsor") }
        let screened = SponsorSegment.screened(candidates.reversed(), categories: both, duration: nil)
        #expect(screened.count == SponsorSegment.maxCount)
        #expect(screened.first == SponsorSegment(start: 0, end: 1, category: "sponsor"))
        #expect(zip(screened, screened.dropFirst()).allSatisfy { $0.end < $1.start })
    }

    @Test func theOSDMessageNamesTheCategoryAndTheTimes() {
        #expect(SponsorSegment(start: 32.7, end: 75, category: "sponsor").skipMessage == "skipped sponsor 0:32–1:15")
        #expect(SponsorSegment(start: 3600, end: 3725, category: "outro").skipMessage == "skipped outro 1:00:00–1:02:05")
    }

    @Test func enteringASegmentSkipsItOnceSoASeekBackIntoItPlays() {
        var skipper = SegmentSkipper(segments: [SponsorSegment(start: 10, end: 20, category: "sponsor"), SponsorSegment(start: 30, end: 40, category: "selfpromo")])
        #expect(skipper.observe(seconds: 9.9) == nil)
        #expect(skipper.observe(seconds: 10.05)?.end == 20)
        #expect(skipper.observe(seconds: 20.1) == nil)
        // the user seeks back into the first segment: it plays
        #expect(skipper.observe(seconds: 12) == nil)
        #expect(skipper.observe(seconds: 15) == nil)
        // a seek forward into the second enters it for the first time: skipped
        #expect(skipper.observe(seconds: 35)?.start == 30)
        // at the very end of a segment there is nothing left to skip
        var late = SegmentSkipper(segments: [SponsorSegment(start: 10, end: 20, category: "sponsor")])
        #expect(late.observe(seconds: 19.9) == nil)
    }

    @Test func segmentsArrivingDuringPlaybackKeepWhatWasSkipped() {
        let first = SponsorSegment(start: 10, end: 20, category: "sponsor")
        var skipper = SegmentSkipper(segments: [first])
        #expect(skipper.observe(seconds: 11) == first)
        skipper.use([first, SponsorSegment(start: 50, end: 60, category: "sponsor")])
        #expect(skipper.observe(seconds: 12) == nil)
        #expect(skipper.observe(seconds: 50)?.start == 50)
    }

    @Test func theSettingsDefaultToOffWithSponsorAndSelfPromotion() throws {
        let defaults = SponsorBlockSettings(settings: Settings())
        #expect(defaults == SponsorBlockSettings(enabled: false, categories: both, api: "https://sponsor.ajay.app"))
        let set = SponsorBlockSettings(settings: try Settings(parsing: """
            [sponsorblock]
            enabled = true
            categories = ["intro", "sponsor", "intro"]
            api = "http://127.0.0.1:9"
            """))
        #expect(set == SponsorBlockSettings(enabled: true, categories: ["intro", "sponsor"], api: "http://127.0.0.1:9"))
        let flagged = try Settings().applyingFlag("--test", .sponsorBlockCategories, "outro, filler")
        #expect(flagged.list(.sponsorBlockCategories) == ["outro", "filler"])
    }

    @Test func badCategoriesAreAnErrorNamingTheLine() {
        for value in ["[\"sponsor\", \"ads\"]", "[]", "\"sponsor\"", "[1, 2]"] {
            #expect {
                try Settings(parsing: "[sponsorblock]\ncategories = \(value)\n")
            } throws: { error in
                "\(error)".contains("config.toml:2") && "\(error)".contains("an array of one or more of \"sponsor\"")
            }
        }
    }
}
