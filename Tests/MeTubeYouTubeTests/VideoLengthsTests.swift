import Foundation
import MeTubeYouTube
import TestSupport
import Testing

/// Video lengths from the Data API's `videos.list?part=contentDetails`, against the loopback stub:
/// the ISO 8601 durations read strictly, 50 ids a call, each id asked once, and whatever the
/// answer says of videos not asked or of impossible lengths ignored.
@Suite struct VideoLengthsTests {
    /// `count` valid video ids numbered from `from`.
    static func ids(_ count: Int, from: Int = 0) -> [String] {
        (from..<(from + count)).map { "len" + String(format: "%08d", $0) }
    }

    @Test func isoDurationsAreReadStrictly() {
        let cases: [(String, Int?)] = [
            ("PT4M13S", 253), ("PT1H", 3_600), ("PT45S", 45), ("P1DT2H3M4S", 93_784), ("P1W", 604_800), ("PT0.5S", nil), ("PT1.9S", 1),
            ("P0D", nil), ("PT0S", nil), ("P7DT1S", nil), ("P1Y", nil), ("P1M", nil), ("PT", nil), ("P", nil), ("", nil), ("PT-5S", nil),
            ("-PT5S", nil), ("PT5", nil), ("pt5s", nil), ("PT5S5S", nil), ("PT1H2H", nil), ("PT9999999999S", nil), ("P1DT", nil), ("T5S", nil),
            ("PT1.5M", nil), ("P99999999W", nil), ("PT999999999H", nil), (String(repeating: "PT1S", count: 40), nil),
        ]
        for (text, seconds) in cases { #expect(ISO8601Duration.seconds(text) == seconds, "\(text)") }
        #expect(ISO8601Duration.maxSeconds == CatalogVideo.maxDurationSeconds)
    }

    @Test func lengthsAreAskedFiftyIdsACallEachOnce() async throws {
        // Given 120 uploads the Data API knows, each 100 + n seconds long
        let ids = Self.ids(120)
        let uploads = ids.enumerated().map { YouTubeStub.Upload(id: $1, duration: "PT\(100 + $0)S") }
        let stub = await YouTubeStub.start(override: YouTubeStub.uploads(["UCxxxxxxxxxxxxxxxxxxxxxx": uploads]))
        defer { stub.stop() }

        // When their lengths are asked, some ids twice, with one video the API does not know
        let lengths = try await YouTubeDataAPI(key: "test-key", baseURL: stub.url).lengths(of: ids + ids.prefix(10) + ["gone0000000"])

        // Then three calls asked every id once, at most 50 a call, for contentDetails only
        let calls = stub.requests.filter { $0.path == "/videos" }
        #expect(calls.count == 3)
        let asked = calls.flatMap { ($0.query["id"] ?? "").split(separator: ",").map(String.init) }
        #expect(asked.count == 121 && Set(asked).count == 121)
        #expect(calls.allSatisfy { ($0.query["id"] ?? "").split(separator: ",").count <= YouTubeDataAPI.maxIDsPerCall })
        #expect(calls.allSatisfy { $0.query["part"] == "contentDetails" })
        #expect(lengths.count == 120)
        #expect(lengths[ids[0]] == 100 && lengths[ids[119]] == 219)
        #expect(lengths["gone0000000"] == nil)

        // And no ids make no call
        #expect(try await YouTubeDataAPI(key: "test-key", baseURL: stub.url).lengths(of: []).isEmpty)
        #expect(stub.requests.filter { $0.path == "/videos" }.count == 3)
    }

    @Test func impossibleLengthsAndVideosNotAskedAreIgnored() async throws {
        // Given a Data API answering garbage lengths, and lengths of videos never asked
        let asked = Self.ids(6)
        let garbage: [String?] = ["PT", "P1Y", "-PT5S", "PT99999999H", "P0D", nil]
        let stub = await YouTubeStub.start(override: { request, _ in
            guard request.path == "/videos" else { return nil }
            return .json(YouTubeStub.videoLengthList(Array(zip(asked, garbage)) + [("notasked001", "PT5M"), ("../../etc/p", "PT1M")]))
        })
        defer { stub.stop() }

        // When their lengths are asked
        let lengths = try await YouTubeDataAPI(key: "test-key", baseURL: stub.url).lengths(of: asked)

        // Then none is known: no zero, no negative, nothing for what was not asked
        #expect(lengths.isEmpty, "\(lengths)")
    }

    @Test func aFailingCallThrowsOneClearError() async throws {
        let spent = await YouTubeStub.start(override: YouTubeStub.uploads([:], quotaSpent: { true }))
        let broken = await YouTubeStub.start(override: { request, _ in
            request.path == "/videos" ? .json(YouTubeStub.apiError(status: 500, reason: "backendError", message: "Backend Error"), status: 500) : nil
        })
        let nonsense = await YouTubeStub.start(override: { request, _ in request.path == "/videos" ? .json("{\"items\":7}") : nil })
        defer { spent.stop(); broken.stop(); nonsense.stop() }

        await #expect(throws: YouTubeError.quotaExceeded("videos.list answered 403 quotaExceeded")) {
            try await YouTubeDataAPI(key: "test-key", baseURL: spent.url).lengths(of: Self.ids(3))
        }
        await #expect(throws: YouTubeError.upstream("videos.list answered HTTP 500 (backendError)")) {
            try await YouTubeDataAPI(key: "test-key", baseURL: broken.url).lengths(of: Self.ids(3))
        }
        await #expect(throws: YouTubeError.garbage("videos.list answered something that is not a videos list")) {
            try await YouTubeDataAPI(key: "test-key", baseURL: nonsense.url).lengths(of: Self.ids(3))
        }
    }
}
