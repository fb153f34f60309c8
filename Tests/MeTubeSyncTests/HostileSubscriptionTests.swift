import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// `Subscription` records another client wrote badly: each costs only its field or record.
@Suite("Subscription records from a hostile client")
struct HostileSubscriptionTests {
    private func record(_ number: Int, _ fields: [String: MarkSyncField]) -> MarkSyncRecordsModifyRequest.Operation {
        .init(.create, record: MarkSyncRecord(recordName: SubscriptionSyncTests.channel(number), recordType: SubscriptionRecord.recordType, fields: fields))
    }

    @Test("oversized, missing and mistyped fields are bounded and reported; the rest of the page is applied")
    func badRecords() async throws {
        let directory = TemporaryDirectory("metube-hostile-subscriptions")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(.sqlite, in: directory)
        // Given a device that follows channel 4 with tags, synced
        let device = try Store.open(at: directory.url.appendingPathComponent("device"))
        try device.transaction { $0.follow(Channel(id: SubscriptionSyncTests.channel(4), tags: ["mine"])) }
        _ = try await server.sync(device).run()

        // And another client that writes: 10,000 tags; a tag of 900 KB beside a good one; a
        // `followed` that is a string; channel 4 again without any tags; a record name that is not
        // a channel id; and a title full of escape sequences
        let manyTags = MarkSyncField(value: .list((0..<10_000).map { .string("t\($0)") }), type: "STRING_LIST")
        let hugeTag = MarkSyncField(value: .list([.string(String(repeating: "x", count: 900_000)), .string("ok"), .integer(7)]), type: "STRING_LIST")
        let zone = MarkSyncZoneID(zoneName: SubscriptionRecord.zoneName)
        let client = server.client
        for operation in [
            record(1, ["followed": .int64(1), "tags": manyTags]),
            record(2, ["followed": .int64(1), "tags": hugeTag, "title": .string("\u{1b}[2Jevil\u{7}")]),
            record(3, ["followed": .string("yes"), "tags": MarkSyncField(value: .list([.string("x")]), type: "STRING_LIST")]),
            .init(.create, record: MarkSyncRecord(recordName: "not-a-channel", recordType: SubscriptionRecord.recordType, fields: ["followed": .int64(1)])),
        ] {
            let response = try await client.modifyRecords(MarkSyncRecordsModifyRequest(operations: [operation], zoneID: zone))
            guard case .success = response.records.first else { Issue.record("the server refused \(operation.record.recordName ?? "?")"); return }
        }
        let lookup = try await client.lookupRecords(MarkSyncRecordsLookupRequest(records: [.init(recordName: SubscriptionSyncTests.channel(4))], zoneID: zone))
        guard case .success(let known)? = lookup.records.first else { Issue.record("no record of channel 4"); return }
        let update = MarkSyncRecord(recordName: known.recordName, recordType: SubscriptionRecord.recordType, recordChangeTag: known.recordChangeTag,
                                  fields: ["followed": .int64(1), "channelId": .string(SubscriptionSyncTests.channel(4))])
        _ = try await client.modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.update, record: update)], zoneID: zone))

        // When the device syncs
        let report = try await server.sync(device).run()

        // Then the two bad records are dropped and counted; 10,000 tags are cut to the bound; the
        // huge tag and the number are left out and the good tag kept; a record without tags
        // keeps the device's tags (and pushes them back); the title is kept as text, bounded
        #expect(report.dropped == 2)
        let channels = device.library().channels
        #expect(Set(channels.keys) == Set([1, 2, 4].map(SubscriptionSyncTests.channel)))
        #expect(channels[SubscriptionSyncTests.channel(1)]?.tags?.count == ChannelTags.maxCount)
        #expect(channels[SubscriptionSyncTests.channel(2)]?.tags == ["ok"])
        #expect(channels[SubscriptionSyncTests.channel(4)]?.tags == ["mine"])
        #expect(DisplayText.line(channels[SubscriptionSyncTests.channel(2)]?.title ?? "").unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f })
        let again = try await server.sync(device).run()
        #expect(again.subscriptionsPushed == 0 || device.library().subscriptions.values.allSatisfy { $0.syncState == .synced })
    }
}
