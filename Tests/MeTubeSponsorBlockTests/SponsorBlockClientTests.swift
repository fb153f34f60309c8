import Foundation
import MeTubeCore
import MeTubeSponsorBlock
import Testing
import TestSupport

/// The SponsorBlock client against a loopback stub in the API's documented shape, and against
/// the hostile answers of issue 28: another video's segments, 10,000 segments, start > end, past
/// the duration, NaN, overlaps, a 50 MB answer and a server that never answers.
@Suite struct SponsorBlockClientTests {
    private let videoID = "dQw4w9WgXcQ"
    private let both = ["sponsor", "selfpromo"]

    @Test func asksWithTheHashPrefixOnlyAndKeepsItsOwnVideosSegments() async throws {
        let neighbour = SponsorBlockStub.neighbour(of: videoID)
        let stub = await SponsorBlockStub.start(videos: [
            videoID: [.init(32, 75), .init(100, 110, category: "selfpromo"), .init(200, 210, category: "sponsor", actionType: "mute")],
            neighbour: [.init(1, 50)],
        ])
        defer { stub.stop() }
        let segments = try await SponsorBlockClient(api: stub.url).segments(of: videoID, categories: both, duration: 600)
        #expect(segments == [SponsorSegment(start: 32, end: 75, category: "sponsor"), SponsorSegment(start: 100, end: 110, category: "selfpromo")])
        let request = try #require(stub.requests.first)
        #expect(request.hasPrefix("/api/skipSegments/\(SponsorBlockStub.hash(of: videoID).prefix(4))?categories="))
        #expect(request.removingPercentEncoding?.hasSuffix("categories=[\"sponsor\",\"selfpromo\"]") == true, "\(request)")
        #expect(!request.contains(videoID))
    }

    @Test func noSegmentsKnownIsAnEmptyList() async throws {
        let stub = await SponsorBlockStub.start(videos: [:])
        defer { stub.stop() }
        #expect(try await SponsorBlockClient(api: stub.url).segments(of: videoID, categories: both, duration: nil).isEmpty)
    }

    @Test func onlyAnotherVideosEntryGivesNothing() async throws {
        let stub = await SponsorBlockStub.start(videos: [SponsorBlockStub.neighbour(of: videoID): [.init(1, 50)]])
        defer { stub.stop() }
        #expect(try await SponsorBlockClient(api: stub.url).segments(of: videoID, categories: both, duration: nil).isEmpty)
    }

    @Test func tenThousandSegmentsAreBoundedAndScreened() async throws {
        let many = (0..<10_000).map { SponsorBlockStub.Segment(Double($0) * 3, Double($0) * 3 + 2) }
        let stub = await SponsorBlockStub.start(videos: [videoID: many])
        defer { stub.stop() }
        let client = SponsorBlockClient(api: stub.url, timeLimit: .seconds(60))
        let segments = try await client.segments(of: videoID, categories: both, duration: nil)
        #expect(segments.count == SponsorSegment.maxCount)
        #expect(segments.first == SponsorSegment(start: 0, end: 2, category: "sponsor"))
    }

    @Test func badTimesNaNAndUnreadableEntriesDropOnlyThemselves() async throws {
        let answer = """
            [{"videoID":"\(videoID)","segments":[
              {"category":"sponsor","segment":[20,10]},
              {"category":"sponsor","segment":[NaN,10]},
              {"category":"sponsor","segment":[5,Infinity]},
              {"category":"sponsor","segment":["5","9"]},
              {"category":"sponsor","segment":[1]},
              {"category":"sponsor","segment":[700,720]},
              {"category":"sponsor","segment":[30,40]},
              {"category":"selfpromo","segment":[35,50]},
              {"category":"sponsor","segment":[1e400,2e400]},
              {"segment":[60,70]}
            ]},
            {"videoID":42,"segments":[]}, "junk", null]
            """
        let stub = await SponsorBlockStub.start { _ in (200, Data(answer.utf8)) }
        defer { stub.stop() }
        let segments = try await SponsorBlockClient(api: stub.url).segments(of: videoID, categories: both, duration: 600)
        #expect(segments == [SponsorSegment(start: 30, end: 50, category: "sponsor")])
    }

    @Test func aFiftyMegabyteAnswerIsCutOffWithAClearError() async throws {
        let huge = Data("[{\"videoID\":\"\(videoID)\",\"segments\":[".utf8) + Data(repeating: 0x20, count: 50 << 20) + Data("]}]".utf8)
        let stub = await SponsorBlockStub.start { _ in (200, huge) }
        defer { stub.stop() }
        await #expect {
            try await SponsorBlockClient(api: stub.url).segments(of: videoID, categories: both, duration: nil)
        } throws: { error in
            guard case .transfer(.tooLarge)? = error as? SponsorBlockError else { return false }
            return "\(error)" == "stopped: SponsorBlock: the answer is larger than 4 MiB"
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let stub = await SponsorBlockStub.start { _ in
            try? await Task.sleep(for: .seconds(30))
            return (200, Data("[]".utf8))
        }
        defer { stub.stop() }
        let error = await #expect(throws: SponsorBlockError.transfer(.timedOut(seconds: 0.5))) {
            try await SponsorBlockClient(api: stub.url, timeLimit: .milliseconds(500)).segments(of: videoID, categories: both, duration: nil)
        }
        #expect(error?.description == "the server did not answer within 0.5 s")
    }

    @Test func anIdThatIsNoVideoIDIsNeverSent() async throws {
        let stub = await SponsorBlockStub.start(videos: [:])
        defer { stub.stop() }
        let refused = await #expect(throws: SponsorBlockError.notAVideoID("../\u{1b}[2J")) {
            try await SponsorBlockClient(api: stub.url).segments(of: "../\u{1b}[2J", categories: both, duration: nil)
        }
        let line = refused?.description ?? ""
        #expect(line.hasPrefix("unreadable answer from the server: ../") && line.hasSuffix("[2J is not a video id") && !line.contains("\u{1b}"), "\(line)")
        #expect(stub.requests.isEmpty)
    }

    @Test func anErrorStatusAndAnAnswerThatIsNoListAreClearErrors() async throws {
        let failing = await SponsorBlockStub.start { _ in (503, Data()) }
        defer { failing.stop() }
        let refused = await #expect(throws: SponsorBlockError.http(status: 503)) {
            try await SponsorBlockClient(api: failing.url).segments(of: videoID, categories: both, duration: nil)
        }
        #expect(refused?.description == "the server answered HTTP 503: Service Unavailable")
        let garbage = await SponsorBlockStub.start { _ in (200, Data("{\"videoID\":1}".utf8)) }
        defer { garbage.stop() }
        let unreadable = await #expect(throws: SponsorBlockError.unreadable) {
            try await SponsorBlockClient(api: garbage.url).segments(of: videoID, categories: both, duration: nil)
        }
        #expect(unreadable?.description == "unreadable answer from the server: SponsorBlock: not a list of videos' segments")
    }
}
