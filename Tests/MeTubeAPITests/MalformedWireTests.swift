import Foundation
import MeTubeAPI
import Testing

/// Wrong types and missing required keys are refused with an error that names the offending key.
@Suite("Malformed wire documents")
struct MalformedWireTests {
    static let hub: [BadWire] = [
        .of(HubRegisterRequest.self, #"{}"#, .keyNotFound, at: "channelIds"),
        .of(HubRegisterRequest.self, #"{"channelIds":"UCXuqSBlHAE6Xw-yeJA0Tunw"}"#, .typeMismatch, at: "channelIds"),
        .of(HubRegisterRequest.self, #"{"channelIds":["UCXuqSBlHAE6Xw-yeJA0Tunw",7]}"#, .typeMismatch, at: "channelIds[1]"),
        .of(HubRegisterResponse.self, #"{"requested":"1","inserted":1,"alreadyPresent":0,"totalChannels":1}"#, .typeMismatch, at: "requested"),
        .of(HubRegisterResponse.self, #"{"requested":1,"inserted":1,"alreadyPresent":0}"#, .keyNotFound, at: "totalChannels"),
        .of(HubChannelList.self, #"{"channels":{}}"#, .typeMismatch, at: "channels"),
        .of(HubChannelList.self, #"{"channels":[{"title":"x"}]}"#, .keyNotFound, at: "channels[0].channelId"),
        .of(HubChannelList.self, #"{"channels":[{"channelId":null}]}"#, .valueNotFound, at: "channels[0].channelId"),
        .of(HubErrorBody.self, #"{"message":"User not found"}"#, .keyNotFound, at: "error"),
        .of(HubVideoPage.self, #"[]"#, .typeMismatch, at: ""),
        .of(HubVideoPage.self, #"{"videos":[]}"#, .keyNotFound, at: "maxSeqReturned"),
        .of(HubVideoPage.self, #"{"videos":null,"maxSeqReturned":1}"#, .valueNotFound, at: "videos"),
        .of(HubVideoPage.self, row(#""seq":"12346""#), .typeMismatch, at: "videos[0].seq"),
        .of(HubVideoPage.self, row(#""seq":1,"videoId":"a","channelId":"c","publishedAt":"p""#, url: false), .keyNotFound, at: "videos[0].url"),
        .of(HubVideoPage.self, row(#""seq":1,"title":5"#), .typeMismatch, at: "videos[0].title"),
        .of(HubVideoPage.self, row(#""seq":1,"durationSeconds":"PT4M13S""#), .typeMismatch, at: "videos[0].durationSeconds"),
        .of(HubVideoPage.self, row(#""seq":1,"durationSeconds":12.5"#), .dataCorrupted, at: "videos[0].durationSeconds"),
        .of(HubVideoQuery.self, #"{"limit":"10"}"#, .typeMismatch, at: "limit"),
        .of(HubVideoQuery.self, #"{"channelIds":"UCXuqSBlHAE6Xw-yeJA0Tunw"}"#, .typeMismatch, at: "channelIds"),
    ]

    static let markSync: [BadWire] = [
        .of(MarkSyncErrorBody.self, #"{"serverErrorCode":"THROTTLED","reason":"r"}"#, .keyNotFound, at: "uuid"),
        .of(MarkSyncErrorBody.self, #"{"uuid":"u","serverErrorCode":429,"reason":"r"}"#, .typeMismatch, at: "serverErrorCode"),
        .of(MarkSyncErrorBody.self, #"{"uuid":"u","serverErrorCode":"TEAPOT","reason":"r"}"#, .dataCorrupted, at: "serverErrorCode"),
        .of(MarkSyncZonesModifyRequest.self, #"{}"#, .keyNotFound, at: "operations"),
        .of(MarkSyncZonesModifyRequest.self, #"{"operations":[{"operationType":"explode","zone":{"zoneID":{}}}]}"#, .dataCorrupted, at: "operations[0].operationType"),
        .of(MarkSyncZonesModifyRequest.self, #"{"operations":[{"operationType":"create"}]}"#, .keyNotFound, at: "operations[0].zone"),
        .of(MarkSyncZonesLookupRequest.self, #"{"zones":[{"zoneName":5}]}"#, .typeMismatch, at: "zones[0].zoneName"),
        .of(MarkSyncZonesResponse.self, #"{"zones":[5]}"#, .typeMismatch, at: "zones[0]"),
        .of(MarkSyncZonesResponse.self, #"{"zones":[{"syncToken":"AQ"}]}"#, .keyNotFound, at: "zones[0].zoneID"),
        .of(MarkSyncZonesResponse.self, #"{"zones":[{"zoneID":{"zoneName":"Feed"},"atomic":"yes"}]}"#, .typeMismatch, at: "zones[0].atomic"),
        .of(MarkSyncZonesResponse.self, #"{"zones":[{"zoneID":{"zoneName":"Feed"},"serverErrorCode":"ZONE_NOT_FOUND"}]}"#, .keyNotFound, at: "zones[0].reason"),
        .of(MarkSyncRecordsModifyRequest.self, #"{"operations":[{"operationType":"update"}]}"#, .keyNotFound, at: "operations[0].record"),
        .of(MarkSyncRecordsModifyRequest.self, #"{"operations":[{"operationType":"upsert","record":{}}]}"#, .dataCorrupted, at: "operations[0].operationType"),
        .of(MarkSyncRecordsModifyRequest.self, #"{"operations":[{"operationType":"create","record":{"fields":[]}}]}"#, .typeMismatch, at: "operations[0].record.fields"),
        .of(MarkSyncRecordsModifyRequest.self, #"{"operations":[{"operationType":"create","record":{"fields":{"status":{"type":"STRING"}}}}]}"#, .keyNotFound, at: "operations[0].record.fields.status.value"),
        .of(MarkSyncRecordsModifyRequest.self, #"{"operations":[{"operationType":"create","record":{"fields":{"status":{"value":"w","type":5}}}}]}"#, .typeMismatch, at: "operations[0].record.fields.status.type"),
        .of(MarkSyncRecordsModifyRequest.self, #"{"operations":[],"atomic":"false"}"#, .typeMismatch, at: "atomic"),
        .of(MarkSyncRecordsLookupRequest.self, #"{"records":[{}]}"#, .keyNotFound, at: "records[0].recordName"),
        .of(MarkSyncRecordsResponse.self, #"{"records":{}}"#, .typeMismatch, at: "records"),
        .of(MarkSyncRecordsResponse.self, #"{"records":[{"recordName":"a","created":{"timestamp":"yesterday"}}]}"#, .typeMismatch, at: "records[0].created.timestamp"),
        .of(MarkSyncRecordsResponse.self, #"{"records":[{"recordName":"a","modified":{}}]}"#, .keyNotFound, at: "records[0].modified.timestamp"),
        .of(MarkSyncRecordsResponse.self, #"{"records":[{"recordName":"a","deleted":"yes"}]}"#, .typeMismatch, at: "records[0].deleted"),
        .of(MarkSyncRecordsResponse.self, #"{"records":[{"recordName":"a","serverErrorCode":"CONFLICT"}]}"#, .keyNotFound, at: "records[0].reason"),
        .of(MarkSyncZoneChangesRequest.self, #"{"zones":[{"syncToken":"AQ"}]}"#, .keyNotFound, at: "zones[0].zoneID"),
        .of(MarkSyncZoneChangesRequest.self, #"{"zones":[{"zoneID":{},"resultsLimit":"many"}]}"#, .typeMismatch, at: "zones[0].resultsLimit"),
        .of(MarkSyncZoneChangesResponse.self, #"{"zones":[{"zoneID":{},"syncToken":"AQ","records":[]}]}"#, .keyNotFound, at: "zones[0].moreComing"),
        .of(MarkSyncZoneChangesResponse.self, #"{"zones":[{"zoneID":{},"syncToken":"AQ","records":[],"moreComing":"false"}]}"#, .typeMismatch, at: "zones[0].moreComing"),
        .of(MarkSyncZoneChangesResponse.self, #"{"zones":[{"zoneID":{},"moreComing":false,"records":[]}]}"#, .keyNotFound, at: "zones[0].syncToken"),
    ]

    /// A videos/query answer with one row made of `fields` plus the keys it leaves out.
    static func row(_ fields: String, url: Bool = true) -> String {
        let rest = fields.contains("videoId") ? "" : #","videoId":"a","channelId":"c","publishedAt":"p""#
        return #"{"videos":[{"# + fields + rest + (url ? #","url":"u""# : "") + #"}],"maxSeqReturned":1}"#
    }

    @Test("hub documents are refused at the offending key", arguments: hub)
    func hubDocument(bad: BadWire) {
        Self.expectRefusal(bad)
    }

    @Test("status documents are refused at the offending key", arguments: markSync)
    func markSyncDocument(bad: BadWire) {
        Self.expectRefusal(bad)
    }

    /// Checks that `bad` fails to decode with the expected kind of error at the expected path.
    static func expectRefusal(_ bad: BadWire, mentioning words: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try bad.decode(Data(bad.json.utf8))
            Issue.record("decoded, but must be refused", sourceLocation: sourceLocation)
        } catch let error as DecodingError {
            let found = BadWire.describe(error)
            #expect(found.kind == bad.kind, "\(found.message)", sourceLocation: sourceLocation)
            #expect(found.path == bad.path, "\(found.message)", sourceLocation: sourceLocation)
            for word in words {
                #expect(found.message.contains(word), "\(found.message)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("refused with a non-decoding error: \(error)", sourceLocation: sourceLocation)
        }
    }
}
