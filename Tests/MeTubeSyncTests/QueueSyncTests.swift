import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// The watch-later queue travelling between two real stores through a real `metube-server`
/// process, on SQLite and on PostgreSQL: additive `queuedAt`/`queueHlc` fields on the
/// `WatchedStatus` record, the later clock reading wins, and a queue change never makes a status
/// conflict.
@Suite("Watch-later queue sync through metube-server")
struct QueueSyncTests {
    typealias Backend = MarkSyncServerProcess.Backend

    private func device(_ name: String, in directory: TemporaryDirectory) throws -> Store {
        try Store.open(at: directory.url.appendingPathComponent(name))
    }

    @discardableResult
    private func sync(_ server: MarkSyncServerProcess, _ stores: Store...) async throws -> MarkSync.Report {
        var report = MarkSync.Report()
        for store in stores { report.add(try await server.sync(store).run()) }
        return report
    }

    private func write(_ store: Store, _ entries: [QueueEntry]) throws {
        var change = StoreChange()
        change.queue = entries
        try store.apply(change)
    }

    private func add(_ store: Store, _ ids: String...) throws {
        try store.transaction { for id in ids { $0.addToQueue(id) } }
    }

    @Test("a queue, its order and its removals travel to the other device", arguments: Backend.allCases)
    func queueTravels(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-queue")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        let laptop = try device("laptop", in: directory), phone = try device("phone", in: directory)
        // Given the laptop queued three videos in one write (within a millisecond)
        try add(laptop, "ccccccccccc", "aaaaaaaaaaa", "bbbbbbbbbbb")
        try await sync(server, laptop, phone)
        // Then the phone has them in the same order, and both hold them as synced
        #expect(phone.library().queuedVideoIDs == ["ccccccccccc", "aaaaaaaaaaa", "bbbbbbbbbbb"])
        #expect([laptop, phone].allSatisfy { $0.library().queue.values.allSatisfy { $0.syncState == .synced } })

        // When the phone watches the first and moves the last up, and the laptop queues one more
        try phone.mark("ccccccccccc", as: .watched)
        try phone.transaction { $0.swapInQueue("bbbbbbbbbbb", "aaaaaaaaaaa") }
        try add(laptop, "ddddddddddd")
        let report = try await sync(server, phone, laptop, phone)
        // Then both show the same queue, and nothing conflicted
        #expect(report.conflicts == 0)
        for store in [laptop, phone] {
            #expect(store.library().queuedVideoIDs == ["bbbbbbbbbbb", "aaaaaaaaaaa", "ddddddddddd"], "\(store.directory)")
            #expect(store.library().marks.values.allSatisfy { $0.syncState == .synced })
        }
        #expect(laptop.library().marks["ccccccccccc"]?.status == .watched)
    }

    @Test("of a concurrent add and remove the later clock reading wins, whichever syncs first", arguments: Backend.allCases)
    func laterWins(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-queue")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        let laptop = try device("laptop", in: directory), phone = try device("phone", in: directory)
        try add(laptop, "aaaaaaaaaaa", "bbbbbbbbbbb")
        try await sync(server, laptop, phone)
        // Given, concurrently: the laptop takes a out at t+1 s and queues b anew at t+2 s, while
        // the phone queues a anew at t+2 s and takes b out at t+1 s
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func entry(_ id: String, queued: Bool, at offset: Int64, _ store: Store) -> QueueEntry {
            QueueEntry(videoID: id, queuedAt: queued ? now + offset : nil, hlc: HybridTimestamp(millis: now + offset), deviceID: store.deviceID)
        }
        try write(laptop, [entry("aaaaaaaaaaa", queued: false, at: 1_000, laptop), entry("bbbbbbbbbbb", queued: true, at: 2_000, laptop)])
        try write(phone, [entry("aaaaaaaaaaa", queued: true, at: 2_000, phone), entry("bbbbbbbbbbb", queued: false, at: 1_000, phone)])
        // When both sync, the laptop first
        let report = try await sync(server, laptop, phone, laptop)
        // Then the later of each pair won on both devices, and no status conflicted
        #expect(report.conflicts == 0)
        for store in [laptop, phone] {
            #expect(Set(store.library().queuedVideoIDs) == ["aaaaaaaaaaa", "bbbbbbbbbbb"], "\(store.directory)")
            #expect(store.library().marks.values.allSatisfy { $0.syncState == .synced })
        }
    }

    @Test("queueing a video another device marks watched at the same time makes no status conflict", arguments: Backend.allCases)
    func noStatusConflict(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-queue")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        let laptop = try device("laptop", in: directory), phone = try device("phone", in: directory)
        // Given neither device knows the video: the phone queued it a second ago, the laptop
        // marks it watched now
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try write(phone, [QueueEntry(videoID: "aaaaaaaaaaa", queuedAt: now - 1_000, hlc: HybridTimestamp(millis: now - 1_000), deviceID: phone.deviceID)])
        try laptop.mark("aaaaaaaaaaa", as: .watched)
        // When the phone pushes first, then the laptop, then both again
        let report = try await sync(server, phone, laptop, phone, laptop)
        // Then the status is watched everywhere, synced, without a conflict; the video left the
        // queue (watched after it was queued)
        #expect(report.conflicts == 0)
        for store in [laptop, phone] {
            let mark = try #require(store.library().marks["aaaaaaaaaaa"])
            #expect(mark.status == .watched && mark.syncState == .synced, "\(mark)")
            #expect(store.library().queuedVideoIDs.isEmpty)
        }
    }

    @Test("a hostile queuedAt or queueHlc (1970, year 9999, not a date, nanoseconds) neither breaks the sync nor pins a video")
    func hostileQueuedAt() async throws {
        let directory = TemporaryDirectory("metube-queue")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(.sqlite, in: directory)
        let laptop = try device("laptop", in: directory)
        try add(laptop, "ggggggggggg")
        try await sync(server, laptop)
        // (queued before the laptop's own video, however long the server took to start)
        let beforeLaptops = try #require(laptop.library().queue["ggggggggggg"]?.queuedAt) - 1_000
        // Given another client wrote queue fields the odd way
        let zone = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func record(_ id: String, _ queuedAt: MarkSyncField, hlc: String? = nil) -> MarkSyncRecordsModifyRequest.Operation {
            var fields = WatchedRecord(videoID: id, status: "unwatched", lastModified: now).fields
            fields["queuedAt"] = queuedAt
            if let hlc { fields["queueHlc"] = .string(hlc) }
            return .init(.create, record: MarkSyncRecord(recordName: id, recordType: WatchedRecord.recordType, fields: fields))
        }
        _ = try await server.client.modifyRecords(MarkSyncRecordsModifyRequest(operations: [
            record("far9999aaaa", .timestamp(253_402_300_799_999), hlc: "\(now)-0"),
            record("notadateaaa", .string("next tuesday"), hlc: "\(now)-0"),
            record("nanosaaaaaa", .timestamp(now * 1_000_000), hlc: "\(now)-0"),
            record("nohlcaaaaaa", .timestamp(beforeLaptops)),
            record("badhlcaaaaa", .timestamp(now), hlc: "yesterday"),
            record("hlc1970aaaa", .timestamp(now), hlc: "1-0"),
            record("hlcfaraaaaa", .timestamp(253_402_300_799_999), hlc: "253402300799999-0"),
            record("queued1970a", .timestamp(5), hlc: "\(now)-0"),
        ], zoneID: zone))
        // When the laptop pulls
        let report = try await sync(server, laptop)
        // Then the year-9999 one is queued as of its clock reading (not pinned behind every later
        // addition), the unreadable ones are not queued, the one without queueHlc is dated by
        // lastModified, and every status arrived
        #expect(report.pulled >= 5)
        let library = laptop.library()
        #expect(library.queue["far9999aaaa"]?.queuedAt == now)
        #expect(library.queue["notadateaaa"] == nil && library.queue["nanosaaaaaa"] == nil)
        #expect(library.queue["nohlcaaaaaa"]?.queuedAt == beforeLaptops && library.queue["badhlcaaaaa"]?.queuedAt == now)
        #expect(library.queuedVideoIDs.first == "nohlcaaaaaa")
        #expect(Set(library.queuedVideoIDs) == ["nohlcaaaaaa", "ggggggggggg", "badhlcaaaaa", "far9999aaaa", "hlc1970aaaa", "hlcfaraaaaa"])
        // And a queueHlc from 1970 or the year 9999 counts as absent (the entry is dated by
        // lastModified), while a queuedAt from 1970 is unreadable: nothing is queued in 1970
        #expect(library.queue["hlc1970aaaa"]?.queuedAt == now && library.queue["hlc1970aaaa"]?.hlc.millis == now)
        #expect(library.queue["hlcfaraaaaa"]?.queuedAt == now && library.queue["hlcfaraaaaa"]?.hlc.millis == now)
        #expect(library.queue["queued1970a"] == nil)
        #expect(library.marks["notadateaaa"]?.status == .unwatched)
        // And it all reads back from disk
        #expect(try Store.open(at: laptop.directory).library().queue == library.queue)
    }

    @Test("a client that does not know the queue fields keeps them when it updates the status")
    func unknowingClientKeepsFields() async throws {
        let directory = TemporaryDirectory("metube-queue")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(.sqlite, in: directory)
        let laptop = try device("laptop", in: directory), phone = try device("phone", in: directory)
        try add(laptop, "aaaaaaaaaaa")
        try await sync(server, laptop)
        // When an iOS-style client updates the status with only the fields it knows
        let tag = try #require(laptop.library().marks["aaaaaaaaaaa"]?.base?.changeTag)
        let ios = WatchedRecord(videoID: "aaaaaaaaaaa", status: "unwatched", lastModified: Int64(Date().timeIntervalSince1970 * 1000), playbackPosition: 12)
        let zone = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        _ = try await server.client.modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.update, record: ios.record(changeTag: tag))], zoneID: zone))
        try await sync(server, phone, laptop)
        // Then the queue is still there for both
        #expect(phone.library().queuedVideoIDs == ["aaaaaaaaaaa"])
        #expect(laptop.library().queuedVideoIDs == ["aaaaaaaaaaa"])
    }
}
