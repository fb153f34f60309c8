import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// Follows, unfollows and tags travelling between two or three real stores through a real
/// `metube-server` process, on SQLite and on PostgreSQL.
@Suite("Subscription sync through metube-server")
struct SubscriptionSyncTests {
    typealias Backend = MarkSyncServerProcess.Backend

    /// A channel id numbered `number`.
    static func channel(_ number: Int) -> String {
        "UC" + String(repeating: "0", count: 22 - String(number).count) + String(number)
    }

    /// A new store in `directory`: one device.
    private func device(_ name: String, in directory: TemporaryDirectory) throws -> Store {
        try Store.open(at: directory.url.appendingPathComponent(name))
    }

    private func follow(_ store: Store, _ number: Int, tags: [String]? = nil) throws {
        try store.transaction { $0.follow(Channel(id: Self.channel(number), tags: tags)) }
    }

    private func followed(_ store: Store) -> Set<String> { Set(store.library().channels.keys) }

    private func tags(_ store: Store, _ number: Int) -> [String]? { store.library().channels[Self.channel(number)]?.tags }

    @discardableResult
    private func sync(_ server: MarkSyncServerProcess, _ stores: Store...) async throws -> MarkSync.Report {
        var report = MarkSync.Report()
        for store in stores { report = try await server.sync(store).run() }
        return report
    }

    @Test("first sync of a second device merges two non-empty lists, tags of both kept, and reports the merge", arguments: Backend.allCases)
    func mergeTwoLists(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-subscriptions")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        // Given two devices that never synced, following overlapping channels with different tags
        let laptop = try device("laptop", in: directory), desktop = try device("desktop", in: directory)
        try follow(laptop, 1, tags: ["music"])
        try follow(laptop, 2)
        try follow(desktop, 2, tags: ["news"])
        try follow(desktop, 1, tags: ["talks"])
        try follow(desktop, 3)

        // When the laptop syncs, then the desktop, then the laptop again
        let first = try await sync(server, laptop)
        let second = try await sync(server, desktop)
        try await sync(server, laptop)

        // Then the laptop's list was pushed, not overwritten by the server's empty one; the
        // desktop merged both lists and said so; both hold every channel and every tag, synced
        #expect(first.subscriptionsPushed == 2)
        #expect(second.subscriptionsMerged == 2)
        #expect(second.subscriptionsPulled >= 1)
        for store in [laptop, desktop] {
            #expect(followed(store) == [Self.channel(1), Self.channel(2), Self.channel(3)])
            #expect(Set(tags(store, 1) ?? []) == ["music", "talks"])
            #expect(tags(store, 2) == ["news"])
            #expect(store.library().subscriptions.values.allSatisfy { $0.syncState == .synced })
        }
    }

    @Test("of a concurrent follow and unfollow the later clock reading wins, whichever syncs first", arguments: Backend.allCases)
    func followVersusUnfollow(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-subscriptions")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        let laptop = try device("laptop", in: directory), desktop = try device("desktop", in: directory)
        try follow(laptop, 1)
        try follow(laptop, 2)
        try await sync(server, laptop, desktop)
        #expect(followed(desktop) == [Self.channel(1), Self.channel(2)])

        // Given channel 1 unfollowed on the laptop, then (later) unfollowed and followed again on
        // the desktop; and channel 2 unfollowed and followed again on the desktop, then (later)
        // unfollowed on the laptop
        try laptop.transaction { $0.unfollow(Self.channel(1)) }
        try desktop.transaction { transaction in
            transaction.observe(laptop.library().subscriptions[Self.channel(1)]!.hlc)
            transaction.unfollow(Self.channel(1))
            transaction.unfollow(Self.channel(2))
        }
        try desktop.transaction { $0.follow(Channel(id: Self.channel(1))) }
        try desktop.transaction { $0.follow(Channel(id: Self.channel(2))) }
        try laptop.transaction { transaction in
            transaction.observe(desktop.library().subscriptions[Self.channel(2)]!.hlc)
            transaction.unfollow(Self.channel(2))
        }

        // When the laptop syncs first, then the desktop, then the laptop
        try await sync(server, laptop, desktop, laptop)

        // Then both follow channel 1 (the desktop's follow was later) and not channel 2 (the
        // laptop's unfollow was later), and the unfollow is kept as a tombstone
        for store in [laptop, desktop] {
            #expect(followed(store) == [Self.channel(1)])
            #expect(store.library().subscriptions[Self.channel(2)]?.followed == false)
            #expect(store.library().subscriptions.values.allSatisfy { $0.syncState == .synced })
        }
    }

    @Test("tags merge add-wins; a removal removes only what that device had seen", arguments: Backend.allCases)
    func tagsMerge(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-subscriptions")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        let laptop = try device("laptop", in: directory), desktop = try device("desktop", in: directory)
        try follow(laptop, 1, tags: ["a", "b"])
        try await sync(server, laptop, desktop)
        #expect(tags(desktop, 1) == ["a", "b"])

        // Given the laptop removes b and adds c, while the desktop adds d and then e
        _ = try laptop.transaction { $0.setTags(["a", "c"], of: Self.channel(1)) }
        _ = try desktop.transaction { $0.setTags(["a", "b", "d"], of: Self.channel(1)) }
        try await sync(server, desktop)
        _ = try desktop.transaction { $0.setTags(["a", "b", "d", "e"], of: Self.channel(1)) }

        // When they sync in turn
        try await sync(server, laptop, desktop, laptop)

        // Then b is gone (the laptop had seen it), and c, d and e are kept
        for store in [laptop, desktop] {
            #expect(Set(tags(store, 1) ?? []) == ["a", "c", "d", "e"])
        }
    }

    @Test("an unfollow travels as a tombstone: it removes the channel elsewhere and beats an older follow", arguments: Backend.allCases)
    func tombstone(_ backend: Backend) async throws {
        let directory = TemporaryDirectory("metube-subscriptions")
        defer { directory.remove() }
        let server = try await MarkSyncServerProcess(backend, in: directory)
        // Given a tablet that followed channel 1 long before, offline, and two devices that synced it
        let tablet = try device("tablet", in: directory)
        try tablet.apply(StoreChange(channels: [Channel(id: Self.channel(1), addedAt: Date(timeIntervalSince1970: 1_700_000_000))]))
        let laptop = try device("laptop", in: directory), desktop = try device("desktop", in: directory)
        try follow(laptop, 1)
        try follow(laptop, 2)
        try await sync(server, laptop, desktop)

        // When the laptop unfollows channel 1 and syncs, then the desktop and the tablet sync
        try laptop.transaction { $0.unfollow(Self.channel(1)) }
        try await sync(server, laptop, desktop, tablet)

        // Then the server keeps the unfollow as a record with followed 0, and every device has
        // dropped the channel, the tablet's older follow included
        let changes = try await server.client.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncZoneID(zoneName: SubscriptionRecord.zoneName))]))
        guard case .success(let zone)? = changes.zones.first else { Issue.record("no zone"); return }
        let records = Dictionary(uniqueKeysWithValues: zone.records.compactMap { record in SubscriptionRecord(record).map { ($0.channelID, $0) } })
        #expect(records[Self.channel(1)]?.followed == false)
        for store in [laptop, desktop, tablet] {
            #expect(followed(store) == [Self.channel(2)])
            #expect(store.library().subscriptions[Self.channel(1)]?.followed == false)
        }
    }
}
