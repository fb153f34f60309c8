import Foundation
import MeTubeJSON
import Testing
@testable import MeTubeSync

/// A `videos/query` page is read straight from its bytes: whatever a hostile hub sends, the
/// reader either screens it row by row or refuses the page with a clear message, and never
/// crashes or hangs.
@Suite struct ScreenedHubPageTests {
    private static let row = #"{"seq":1,"videoId":"AAAAAAAAAAA","channelId":"UC0123456789012345678901","publishedAt":"2026-11-26T10:00:00Z","url":"u"}"#

    private func page(_ json: String) throws -> ScreenedHubPage {
        try Data(json.utf8).withUnsafeBytes { bytes in try ScreenedHubPage(json: bytes) }
    }

    private func refusal(_ json: String) -> String? {
        do {
            _ = try page(json)
            return nil
        } catch SyncError.invalidResponse(let reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    @Test func anUnknownFieldNestedBeyondTheLimitIsRefusedNotRecursedInto() {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let reason = refusal(#"{"videos":[\#(Self.row)],"extra":\#(deep)}"#)
        #expect(reason?.contains("nested deeper than \(JSONNesting.maxDepth)") == true)
    }

    @Test func malformedOrIncompletePagesAreRefusedWithAReason() {
        for json in ["", "[]", "null", #"{"videos":"#, #"{"videos":[\#(Self.row)"#, #"{"videos":[\#(Self.row)]} x"#, #"{"videos":{}}"#, #"{"maxSeqReturned":3}"#] {
            #expect(refusal(json) != nil, "\(json.prefix(40))")
        }
    }

    @Test func fieldsOfTheWrongTypeAreClearedOrDroppedAndCounted() throws {
        let rows = [
            Self.row,
            #"{"seq":2,"videoId":"BBBBBBBBBBB","channelId":"UC0123456789012345678901","publishedAt":"2026-11-26T10:00:00Z","title":7,"durationSeconds":"long","viewCount":1e300,"starRatingCount":"many","url":"u","unknown":{"a":[1,2,{"b":null}]}}"#,
            #"{"seq":"3","videoId":"CCCCCCCCCCC"}"#,
            #"[1,2,3]"#,
            #"{"seq":4.0,"videoId":"DDDDDDDDDDD","channelId":"UC0123456789012345678901","publishedAt":"2026-11-26T10:00:00Z","durationSeconds":61.0,"viewCount":12}"#,
        ]
        let page = try page(#"{"maxSeqReturned":"four","videos":[\#(rows.joined(separator: ","))]}"#)
        #expect(page.rowCount == 5)
        #expect(page.videos.map(\.videoID) == ["AAAAAAAAAAA", "BBBBBBBBBBB", "DDDDDDDDDDD"])
        #expect(page.claimedMaxSeq == nil)
        #expect(page.seqRange == 1...4)
        let second = page.videos[1]
        #expect(second.title == nil && second.durationSeconds == nil && second.viewCount == nil && second.starRatingCount == nil)
        #expect(page.cleared["title of the wrong type"] == 1)
        #expect(page.cleared["duration not a whole number"] == 1)
        #expect(page.cleared["view count out of range"] == 1)
        #expect(page.dropped["seq missing or out of range"] == 2)
        #expect(page.videos[2].durationSeconds == 61 && page.videos[2].viewCount == 12)
    }
}
