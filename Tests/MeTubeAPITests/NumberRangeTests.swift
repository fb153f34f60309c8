import Foundation
import MeTubeAPI
import Testing

/// Numbers a peer sends are refused outside the range this side can use and send back: a `seq`
/// or watermark beyond 2^53 − 1 (the hub refuses it as the next `afterSeq`), page sizes outside
/// 1…500, and a `retryAfter` no client can wait (negative, over a year, or beyond a Double).
@Suite("Number ranges")
struct NumberRangeTests {
    static let outOfRange: [BadWire] = [
        .of(HubVideoPage.self, MalformedWireTests.row(#""seq":9007199254740992"#), .dataCorrupted, at: "videos[0].seq"),
        .of(HubVideoPage.self, MalformedWireTests.row(#""seq":9223372036854775807"#), .dataCorrupted, at: "videos[0].seq"),
        .of(HubVideoPage.self, MalformedWireTests.row(#""seq":1e30"#), .dataCorrupted, at: "videos[0].seq"),
        .of(HubVideoPage.self, MalformedWireTests.row(#""seq":12.5"#), .dataCorrupted, at: "videos[0].seq"),
        .of(HubVideoPage.self, MalformedWireTests.row(#""seq":0"#), .dataCorrupted, at: "videos[0].seq"),
        .of(HubVideoPage.self, MalformedWireTests.row(#""seq":-1"#), .dataCorrupted, at: "videos[0].seq"),
        .of(HubVideoPage.self, #"{"videos":[],"maxSeqReturned":9007199254740992}"#, .dataCorrupted, at: "maxSeqReturned"),
        .of(HubVideoPage.self, #"{"videos":[],"maxSeqReturned":-1}"#, .dataCorrupted, at: "maxSeqReturned"),
        .of(HubVideoQuery.self, #"{"afterSeq":-1}"#, .dataCorrupted, at: "afterSeq"),
        .of(HubVideoQuery.self, #"{"afterSeq":9007199254740992}"#, .dataCorrupted, at: "afterSeq"),
        .of(HubVideoQuery.self, #"{"limit":0}"#, .dataCorrupted, at: "limit"),
        .of(HubVideoQuery.self, #"{"limit":-5}"#, .dataCorrupted, at: "limit"),
        .of(HubVideoQuery.self, #"{"limit":501}"#, .dataCorrupted, at: "limit"),
        .of(HubVideoQuery.self, #"{"limit":1.5}"#, .dataCorrupted, at: "limit"),
        .of(MarkSyncErrorBody.self, #"{"uuid":"u","serverErrorCode":"THROTTLED","reason":"r","retryAfter":-1}"#, .dataCorrupted, at: "retryAfter"),
        .of(MarkSyncErrorBody.self, #"{"uuid":"u","serverErrorCode":"THROTTLED","reason":"r","retryAfter":1e300}"#, .dataCorrupted, at: "retryAfter"),
        .of(MarkSyncErrorBody.self, #"{"uuid":"u","serverErrorCode":"THROTTLED","reason":"r","retryAfter":1e400}"#, .dataCorrupted, at: "retryAfter"),
        .of(MarkSyncRecordsResponse.self, #"{"records":[{"serverErrorCode":"THROTTLED","reason":"r","retryAfter":31536001}]}"#, .dataCorrupted, at: "records[0].retryAfter"),
        .of(MarkSyncZonesResponse.self, #"{"zones":[{"zoneID":{},"serverErrorCode":"THROTTLED","reason":"r","retryAfter":-0.5}]}"#, .dataCorrupted, at: "zones[0].retryAfter"),
        .of(MarkSyncZoneChangesResponse.self, #"{"zones":[{"zoneID":{},"serverErrorCode":"THROTTLED","reason":"r","retryAfter":9e15}]}"#, .dataCorrupted, at: "zones[0].retryAfter"),
    ]

    @Test("out-of-range numbers are refused, naming the key and the range", arguments: outOfRange)
    func refused(bad: BadWire) {
        MalformedWireTests.expectRefusal(bad, mentioning: [bad.path.split(separator: ".").last.map(String.init) ?? "", " from "])
    }

    static let boundaries: [(type: String, json: String)] = [
        ("HubVideoPage", MalformedWireTests.row(#""seq":9007199254740991"#).replacingOccurrences(of: #""maxSeqReturned":1"#, with: #""maxSeqReturned":9007199254740991"#)),
        ("HubVideoPage", MalformedWireTests.row(#""seq":1,"durationSeconds":-3"#).replacingOccurrences(of: #""maxSeqReturned":1"#, with: #""maxSeqReturned":0"#)),
        ("HubVideoQuery", #"{"afterSeq":0,"limit":1}"#),
        ("HubVideoQuery", #"{"afterSeq":9007199254740991,"limit":500}"#),
        ("HubVideoQuery", #"{"afterSeq":null,"limit":null,"channelIds":null}"#),
        ("MarkSyncErrorBody", #"{"uuid":"u","serverErrorCode":"THROTTLED","reason":"r","retryAfter":0}"#),
        ("MarkSyncErrorBody", #"{"uuid":"u","serverErrorCode":"THROTTLED","reason":"r","retryAfter":31536000}"#),
        ("MarkSyncErrorBody", #"{"uuid":"u","serverErrorCode":"THROTTLED","reason":"r","retryAfter":null}"#),
    ]

    @Test("the ends of every range are accepted", arguments: boundaries)
    func accepted(type: String, json: String) throws {
        let data = Data(json.utf8)
        switch type {
        case "HubVideoPage": _ = try JSONDecoder().decode(HubVideoPage.self, from: data)
        case "HubVideoQuery": _ = try JSONDecoder().decode(HubVideoQuery.self, from: data)
        case "MarkSyncErrorBody": _ = try JSONDecoder().decode(MarkSyncErrorBody.self, from: data)
        default: Issue.record("no decoder for \(type)")
        }
    }

    @Test func rangesAreTheDocumentedOnes() {
        #expect(HubAPI.maxAfterSeq == (1 << 53) - 1)
        #expect(HubAPI.queryLimitRange == 1...500)
        #expect(MarkSyncErrorBody.retryAfterRange == 0...(365 * 24 * 3600))
    }
}
