import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import Testing

/// A bulk mark, a sync's rule marks and their undo reach a second device through a real status
/// server, in batches.
@Suite("Bulk marks and their undo between devices")
struct BulkMarkSyncTests {
    private func device() throws -> Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bulk-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Store.open(at: directory)
    }

    @Test("300 marks of one batch and a sync's rule marks reach the phone; their undo does too")
    func bulkMarkAndUndoSync() async throws {
        let server = try await MarkSyncTestServer.start()
        let laptop = try device(), phone = try device()
        // Given a laptop that skipped 20 arriving videos by rule and marked 300 watched in one write
        let arrivals = (0..<20).map { Video(id: "rule\($0)", channelID: "UCrules", title: "Trailer \($0)", published: Date(), duration: 90) }
        let rules = FeedRules([FeedRule(name: "trailers", query: try VideoQuery(parsing: "title~\"trailer\""), action: .skip)])
        #expect(try laptop.transaction { $0.applySkipRules(rules, toArriving: arrivals) } == 20)
        let bulk = (0..<300).map { "bulk\($0)" }
        #expect(try laptop.mark([.watched: bulk]) == 300)

        // When both sync, pushing in batches of 100
        _ = try await server.sync(laptop, batchSize: 100).run()
        _ = try await server.sync(phone, batchSize: 100).run()

        // Then the phone holds every mark
        let seen = phone.library().marks
        #expect(bulk.allSatisfy { seen[$0]?.status == .watched })
        #expect(arrivals.allSatisfy { seen[$0.id]?.status == .skipped })

        // When the laptop undoes both (what U writes: each video's previous status, in one write)
        #expect(try laptop.mark([.unwatched: bulk + arrivals.map(\.id)]) == 320)
        _ = try await server.sync(laptop, batchSize: 100).run()
        _ = try await server.sync(phone, batchSize: 100).run()

        // Then the phone sees the undo
        let after = phone.library().marks
        #expect((bulk + arrivals.map(\.id)).allSatisfy { after[$0]?.status == .unwatched })
        #expect(laptop.library().marks.values.allSatisfy { $0.syncState == .synced })
        await server.server.stop()
    }
}
