import Foundation
import MeTubeAPI
import MeTubeServer
import Testing
import TestSupport

/// Issue 37, item 2: `zones/list` answers at most a page of zones, with a continuation marker
/// while more follow, through a real `metube-server` on each backend.
@Suite struct MarkSyncZoneListPagingTests {
    typealias Backend = MarkSyncQuotaTests.Backend

    /// Every page of alice's zones with `resultsLimit` (nil: the server's), as they came.
    static func pages(_ running: MarkSyncQuotaTests.Running, resultsLimit: Int?) async throws -> [MarkSyncZonesResponse] {
        var pages: [MarkSyncZonesResponse] = []
        var marker: String?
        repeat {
            let query = [resultsLimit.map { "&resultsLimit=\($0)" }, marker.map { "&continuationMarker=\($0)" }].compactMap { $0 }.joined()
            let answer = try await running.get("zones/list", query: query, token: running.alice)
            guard answer.status == 200 else { throw QuotaTestFailure("zones/list answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))") }
            let page = try JSONDecoder().decode(MarkSyncZonesResponse.self, from: answer.body)
            pages.append(page)
            marker = page.continuationMarker
        } while marker != nil && pages.count < 100
        return pages
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func zonesListPagesThroughMoreZonesThanOnePage(backend: Backend) async throws {
        // Given alice with 450 zones (her quota raised to allow them) besides the default zone
        let directory = TemporaryDirectory("metube-zones-paging")
        defer { directory.remove() }
        let running = try await MarkSyncQuotaTests.start(backend, ["--quota-zones", "450"], directory: directory)
        defer { running.server.kill() }
        let names = (0..<450).map { String(format: "zone-%04d", $0) }
        for start in stride(from: 0, to: names.count, by: 150) {
            let created = try await running.createZones(Array(names[start..<start + 150]), token: running.alice)
            #expect(created.allSatisfy { MarkSyncQuotaTests.code($0) == "ok" })
        }
        let expected = (names + [MarkSyncZoneID.defaultZoneName]).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }

        // When she lists them with the server's page size and with pages of 7
        let served = try await Self.pages(running, resultsLimit: nil)
        let small = try await Self.pages(running, resultsLimit: 7)

        // Then pages hold at most 200 (or 7) zones, every zone comes once in name order, and only
        // the last page has no marker
        #expect(served.map(\.zones.count) == [200, 200, 51])
        #expect(served.flatMap(\.zones).compactMap(MarkSyncQuotaTests.zoneName) == expected)
        #expect(small.count == 65 && small.dropLast().allSatisfy { $0.zones.count == 7 && $0.continuationMarker != nil })
        #expect(small.last?.continuationMarker == nil)
        #expect(small.flatMap(\.zones).compactMap(MarkSyncQuotaTests.zoneName) == expected)
        // And bob, who has only the default zone, gets it on one page without a marker
        let bob = try JSONDecoder().decode(MarkSyncZonesResponse.self, from: try await running.get("zones/list", token: running.bob).body)
        #expect(bob.zones.compactMap(MarkSyncQuotaTests.zoneName) == [MarkSyncZoneID.defaultZoneName] && bob.continuationMarker == nil)
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func badPagingInputIsAClearBadRequest(backend: Backend) async throws {
        // Given a running server
        let directory = TemporaryDirectory("metube-zones-paging-bad")
        defer { directory.remove() }
        let running = try await MarkSyncQuotaTests.start(backend, [], directory: directory)
        defer { running.server.kill() }

        // When zones/list is asked with garbage markers and limits out of range
        let cases: [(String, String)] = [
            ("&continuationMarker=garbage", "continuationMarker"),
            ("&continuationMarker=L%25%25%25", "continuationMarker"),
            ("&continuationMarker=L" + String(repeating: "QUFB", count: 200), "continuationMarker"),
            ("&continuationMarker=L", "continuationMarker"),
            ("&continuationMarker=LAA", "continuationMarker"),
            ("&resultsLimit=1000000", "resultsLimit"),
            ("&resultsLimit=99999999999999999999999", "resultsLimit"),
            ("&resultsLimit=201", "resultsLimit"),
            ("&resultsLimit=0", "resultsLimit"),
            ("&resultsLimit=-3", "resultsLimit"),
            ("&resultsLimit=ten", "resultsLimit"),
        ]
        for (query, named) in cases {
            let answer = try await running.get("zones/list", query: query, token: running.alice)

            // Then each is a 400 BAD_REQUEST whose reason names the parameter
            let body = try? JSONDecoder().decode(MarkSyncErrorBody.self, from: answer.body)
            #expect(answer.status == 400, "\(query)")
            #expect(body?.serverErrorCode == .badRequest && body?.reason.contains(named) == true, "\(query): \(String(decoding: answer.body, as: UTF8.self))")
        }
        // And a limit in range is served
        #expect(try await running.get("zones/list", query: "&resultsLimit=200", token: running.alice).status == 200)
    }
}
