import Foundation
import MeTubeCore
import MeTubePlayer
import MeTubeSponsorBlock
import MeTubeStore
import Testing
import TestSupport

/// Sponsor segments skipped in the real mpv (`--vo=null --ao=null` on a generated source): the
/// skip, the message on mpv's OSD (printed to its terminal output with `--term-osd=force`), a
/// seek back that is not skipped again, and positions and watched-at in the video's real time.
@Suite(.serialized) struct SponsorSkipTests {
    /// An mpv command like ``PlayerHarness/testSource(seconds:speed:)`` whose OSD messages go to `osd`.
    private static func testSource(seconds: Int, speed: Double, osd: URL) -> MPVCommand {
        MPVCommand(template: "mpv --no-config --vo=null --ao=null --ytdl=no --term-osd=force --speed=\(speed) --title={url} "
                   + "av://lavfi:testsrc=duration=\(seconds):rate=10 >\(osd.path) 2>&1")
    }

    /// A 60 s file of test source at `url`, encoded by mpv itself: unlike the generated source,
    /// a file can be sought back in.
    private static func encodeTestFile(at url: URL) throws -> MPVCommand {
        let encoded = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "mpv", "--no-config", "av://lavfi:testsrc=duration=60:rate=10", "--o=\(url.path)", "--ovc=mpeg4", "--ovcopts=g=10",
        ])
        try #require(encoded.status == 0, "mpv could not encode the test file: \(encoded.stderr)")
        return MPVCommand(template: "mpv --no-config --vo=null --ao=null --ytdl=no --term-osd=force --speed=2 --title={url} \(url.path)")
    }

    /// How often mpv's terminal OSD in `osd` showed the skip of 0:04–0:10.
    private static func skipMessages(in osd: URL) -> Int {
        let text = (try? String(contentsOf: osd, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "skipped sponsor 0:04–0:10").count - 1
    }

    @Test func enteringASegmentSkipsItShowsItOnTheOSDAndASeekBackIntoItPlays() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let osd = harness.directory.url.appendingPathComponent("osd.txt")
        let segment = SponsorSegment(start: 4, end: 10, category: "sponsor")
        let file = try Self.encodeTestFile(at: harness.directory.url.appendingPathComponent("test.mkv"))
        let (recorder, updates) = try harness.play(MPVCommand(template: file.template + " >\(osd.path) 2>&1"))
        recorder.useSegments([segment])
        var iterator = updates.makeAsyncIterator()
        // Given playback crossing the segment, the positions jump from its start to its end
        var inside: [Double] = []
        while let update = await iterator.next(), (update.seconds ?? 0) < segment.end {
            if let seconds = update.seconds, seconds >= segment.start { inside.append(seconds) }
        }
        #expect(!inside.isEmpty && inside.allSatisfy { $0 < segment.end - 1 }, "played inside the segment: \(inside)")
        // When the user seeks back into it once playback goes on past it, it plays on
        while let update = await iterator.next(), (update.seconds ?? 0) < segment.end + 0.5 {}
        recorder.session.seek(to: 5)
        var replayed: Double?
        var sought = false
        while let update = await iterator.next(), let seconds = update.seconds {
            if !sought {
                sought = seconds >= 5 && seconds < 6
            } else if seconds >= 8 {
                if seconds < segment.end { replayed = seconds }
                break
            }
        }
        let played = try #require(replayed, "the segment was skipped again")
        recorder.session.quit()
        while await iterator.next() != nil {}
        let outcome = recorder.waitUntilEnded()
        // Then the saved position is the video's own time, inside the segment the user chose
        let saved = try #require(try harness.reopened().playbackPositions[harness.video.id])
        #expect(saved.seconds >= played && saved.seconds < segment.end + 1)
        #expect(outcome.savedPosition == saved)
        #expect(Self.skipMessages(in: osd) >= 1, "mpv's output: \((try? String(contentsOf: osd, encoding: .utf8))?.suffix(300) ?? "")")
    }

    @Test func withoutSegmentsNothingIsSkipped() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let osd = harness.directory.url.appendingPathComponent("osd.txt")
        let (recorder, updates) = try harness.play(Self.testSource(seconds: 600, speed: 4, osd: osd))
        recorder.useSegments([])
        var inside: [Double] = []
        for await update in updates {
            if let seconds = update.seconds, seconds >= 4, seconds < 10 { inside.append(seconds) }
            if (update.seconds ?? 0) >= 10 { break }
        }
        recorder.stop(waitingAtMost: 10)
        #expect(inside.contains { $0 >= 8 })
        #expect(Self.skipMessages(in: osd) == 0)
    }

    @Test func skippingAnOutroToTheEndMarksWatchedAtTheRealEnd() async throws {
        let harness = try PlayerHarness(duration: 20)
        defer { harness.remove() }
        let osd = harness.directory.url.appendingPathComponent("osd.txt")
        let screened = SponsorSegment.screened([SponsorSegment(start: 12, end: 25, category: "outro")], categories: ["outro"], duration: 20)
        let (recorder, _) = try harness.play(Self.testSource(seconds: 20, speed: 4, osd: osd))
        recorder.useSegments(screened)
        let outcome = recorder.waitUntilEnded()
        #expect(outcome.markedWatched)
        let library = try harness.reopened()
        #expect(library.marks[harness.video.id]?.status == .watched)
        #expect(library.playbackPositions[harness.video.id]?.seconds == 20)
        #expect(((try? String(contentsOf: osd, encoding: .utf8)) ?? "").contains("skipped outro 0:12–0:20"))
    }

    /// Segments fetched from a SponsorBlock stub in the documented shape reach the playing mpv,
    /// are kept in the store, and skip again with the stub gone. Playback seeks back before the
    /// segment once they have arrived, so a slow answer on a busy machine cannot miss it.
    @Test func segmentsFromTheStubAreSkippedAndKeptForOfflinePlay() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let file = try Self.encodeTestFile(at: harness.directory.url.appendingPathComponent("test.mkv"))
        let stub = await SponsorBlockStub.start(videos: [harness.video.id: [.init(4, 10)], SponsorBlockStub.neighbour(of: harness.video.id): [.init(0, 300)]])
        let settings = SponsorBlockSettings(enabled: true, categories: ["sponsor"], api: stub.url)
        for round in ["online", "offline"] {
            let osd = harness.directory.url.appendingPathComponent("osd-\(round).txt")
            let (recorder, updates) = try harness.play(MPVCommand(template: file.template.replacingOccurrences(of: "--speed=2", with: "--speed=1") + " >\(osd.path) 2>&1"))
            let (arrived, arrival) = AsyncStream<Void>.makeStream()
            try #require(SponsorSegmentLoader(settings: settings, store: harness.store)).load(harness.video, into: { segments in
                recorder.useSegments(segments)
                arrival.yield()
            }, failed: { failure in
                Issue.record("\(round): \(failure)")
                arrival.finish()
            })
            for await _ in arrived { break }
            recorder.session.seek(to: 3)
            var inside: [Double] = []
            var before = false
            for await update in updates {
                guard let seconds = update.seconds else { continue }
                if seconds >= 3, seconds < 4 { before = true }
                guard before else { continue }
                if seconds >= 10 { break }
                if seconds >= 4 { inside.append(seconds) }
            }
            recorder.stop(waitingAtMost: 10)
            #expect(before && inside.allSatisfy { $0 < 9 }, "\(round): played inside the segment: \(inside)")
            #expect(Self.skipMessages(in: osd) >= 1, "\(round)")
            if round == "online" { stub.stop() }
        }
        #expect(stub.requests.count == 1)
        #expect(try harness.store.sponsorSegments(of: harness.video.id)?.segments == [SponsorSegment(start: 4, end: 10, category: "sponsor")])
    }
}
