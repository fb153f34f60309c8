import Foundation
import HTTPTypes
import MeTubeAPI
import MeTubeCore
import MeTubeStore
@testable import MeTubeSync
import MeTubeTransfer
import Testing
import TestSupport

/// A mark-sync service that misbehaves: hostile `retryAfter` values, answers that echo the token,
/// records written by another client with nanosecond clocks, bad names and wrong types, and
/// pages that never end. Nothing may crash the sync, leak the token, or store what the store
/// cannot read back.
@Suite struct HostileMarkSyncTests {
    static let token = "s3cret-user-token+/="

    private func client(_ peer: HostilePeer, retries: Int = 2) -> MarkSyncClient {
        MarkSyncClient(
            endpoint: MarkSyncEndpoint(serverURL: peer.url), userToken: Self.token, timeoutSeconds: 30,
            retryPolicy: .init(delays: Array(repeating: .milliseconds(10), count: retries)))
    }

    /// A `changes/zone` answer holding `records`.
    private static func changes(_ records: [String], token: String = "t1", moreComing: Bool = false) -> String {
        "{\"zones\":[{\"zoneID\":{\"zoneName\":\"WatchedStatusZone\"},\"records\":[\(records.joined(separator: ","))],\"syncToken\":\(HostileHub.quoted(token)),\"moreComing\":\(moreComing)}]}"
    }

    /// A watched-status record as JSON, with raw JSON for its clock fields.
    private static func record(_ name: String, tag: String = "c1", lastModified: String = "1700000000000", hlc: String? = "1700000000000-0", extra: String = "") -> String {
        let hlcField = hlc.map { ",\"hlc\":{\"value\":\(HostileHub.quoted($0)),\"type\":\"STRING\"}" } ?? ""
        return "{\"recordName\":\(HostileHub.quoted(name)),\"recordType\":\"WatchedStatus\",\"recordChangeTag\":\(HostileHub.quoted(tag)),"
            + "\"fields\":{\"status\":{\"value\":\"watched\",\"type\":\"STRING\"},\"lastModified\":{\"value\":\(lastModified),\"type\":\"TIMESTAMP\"}\(hlcField)}\(extra)}"
    }

    @Test(arguments: ["9300000000000000", "9.3e18", "-1e300", "1e308", "-1"])
    func aHostileRetryAfterNeverCrashesTheClient(_ value: String) async throws {
        // Given a mark-sync server that answers THROTTLED with a retryAfter of `value`
        let peer = try await HostilePeer.start { _ in
            .json("{\"uuid\":\"u\",\"serverErrorCode\":\"THROTTLED\",\"reason\":\"slow down\",\"retryAfter\":\(value)}", status: 503)
        }
        defer { peer.stop() }

        // When a request is made, Then it fails normally with the server's error
        await #expect(throws: MarkSyncRequestFailure.self) { _ = try await client(peer).listZones() }
    }

    @Test func theTokenTravelsInAHeaderAndNoMessageCarriesIt() async throws {
        // Given a proxy that echoes the request line, the headers and the raw token in its error
        let peer = try await HostilePeer.start { request in
            let echo = "bad gateway for /\(request.path)?\(request.query)&ckWebAuthToken=\(Self.token) "
                + "Authorization: \(request.headers[.authorization] ?? "") token \(Self.token)"
            return HostilePeer.Reply(status: 502, headers: [("Content-Type", "text/plain")], body: .bytes(Data(echo.utf8)))
        }
        defer { peer.stop() }

        // When a request fails
        var message = ""
        do {
            _ = try await client(peer, retries: 0).listZones()
        } catch {
            message = error.description
        }

        // Then the token went as a bearer header, not in the URL, and the message never shows it
        let request = try #require(peer.requests.first)
        #expect(request.headers[.authorization] == "Bearer \(Self.token)")
        #expect(!request.query.contains("ckWebAuthToken"))
        #expect(message.contains("502"))
        #expect(!message.contains(Self.token))
        #expect(!message.contains(PercentEncoding.escape(Self.token)))
        #expect(!message.contains("s3cret"))
    }

    @Test func recordsFromAnotherClientAreRangeCheckedAndTheRestOfThePageIsKept() async throws {
        // Given a page of records written by other clients: one good, one with nanosecond clocks,
        // and bad ones (control characters and 5,000 characters in the name, a 1e300 timestamp)
        let directory = TemporaryDirectory("metube-hostile-records")
        defer { directory.remove() }
        let records = [
            Self.record("AAAAAAAAAAA"),
            Self.record("BBBBBBBBBBB", lastModified: "1700000000000000000", hlc: "1700000000000000000-0"),
            Self.record("CCCCCCCCCC\n"),
            Self.record(String(repeating: "D", count: 5000)),
            Self.record("EEEEEEEEEEE", extra: ",\"modified\":{\"timestamp\":1e300}"),
            Self.record("FFFFFFFFFFF", tag: String(repeating: "t", count: 10_000)),
        ]
        let peer = try await HostilePeer.start { request in
            request.path.hasSuffix("changes/zone") ? .json(Self.changes(records)) : .json("{\"zones\":[{\"zoneName\":\"WatchedStatusZone\"}]}")
        }
        defer { peer.stop() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))

        // When it pulls
        let report = try await MarkSync(client: client(peer), store: store).pullChanges()

        // Then the good records are applied (the one with the unreadable stamp without it),
        // clocks beyond the year 9999 are ignored, the bad records are dropped and counted, and
        // the store reads back everything it wrote
        #expect(report.pulled == 3)
        #expect(report.dropped == 3)
        let marks = store.library().marks
        #expect(marks["AAAAAAAAAAA"]?.hlc == HybridTimestamp(millis: 1_700_000_000_000))
        #expect(marks["BBBBBBBBBBB"]?.status == .watched)
        #expect(marks["BBBBBBBBBBB"]?.base?.hlc == nil)
        #expect(marks["EEEEEEEEEEE"]?.status == .watched)
        #expect(marks.values.allSatisfy { $0.hlc.millis <= PeerInput.maxMillis })
        #expect(store.syncSnapshot().markSyncToken == "t1")
        let reopened = try Store.open(at: store.directory)
        #expect(reopened.library().marks.count == 3)
        #expect(reopened.syncSnapshot().markSyncToken == "t1")
    }

    @Test(.timeLimit(.minutes(1))) func pagesThatNeverEndOrRepeatStopTheMarkSyncPull() async throws {
        // Given a mark-sync server that always says more is coming and hands back the same token
        let peer = try await HostilePeer.start { _ in .json(Self.changes([Self.record("AAAAAAAAAAA")], token: "same", moreComing: true)) }
        defer { peer.stop() }
        let device = MarkSyncTestDevice("phone")

        // When it pulls, Then the repeat stops it with a clear error
        let error = await #expect(throws: MarkSyncRequestFailure.self) {
            _ = try await MarkSync(client: client(peer), store: device).pullChanges()
        }
        #expect(error?.description.contains("its pages repeat") == true)
    }

    @Test func anOversizedSyncTokenIsRefused() async throws {
        // Given a mark-sync server whose sync token is 10 KB
        let peer = try await HostilePeer.start { _ in .json(Self.changes([], token: String(repeating: "t", count: 10_000))) }
        defer { peer.stop() }

        // When it pulls, Then it stops without saving the token
        let device = MarkSyncTestDevice("phone")
        await #expect(throws: MarkSyncRequestFailure.self) { _ = try await MarkSync(client: client(peer), store: device).pullChanges() }
        #expect(device.markSyncToken() == nil)
    }
}
