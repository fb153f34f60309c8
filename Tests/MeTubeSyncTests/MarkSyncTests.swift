import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeSync
import Testing

@Suite("Status sync between devices")
struct MarkSyncTests {
    @Test("two devices mark different videos offline, then both converge")
    func differentVideos() async throws {
        let server = try await MarkSyncTestServer.start()
        // Given two devices with offline marks on different videos
        let phone = MarkSyncTestDevice("phone"), laptop = MarkSyncTestDevice("laptop")
        phone.mark("a", .watched)
        laptop.mark("b", .skipped)
        // When both sync, then the first again
        _ = try await server.sync(phone).run()
        _ = try await server.sync(laptop).run()
        _ = try await server.sync(phone).run()
        // Then both hold both marks, synced, equal to the server
        for device in [phone, laptop] {
            #expect(device.allMarks.mapValues(\.status) == ["a": .watched, "b": .skipped])
            #expect(device.allMarks.values.allSatisfy { $0.syncState == .synced })
        }
        #expect(try await server.serverStatuses() == ["a": "watched", "b": "skipped"])
        await server.server.stop()
    }

    @Test("same video, different values: the later pusher gets a conflict, resolvable by re-marking")
    func conflictThenResolve() async throws {
        let server = try await MarkSyncTestServer.start()
        // Given both devices know v as unwatched
        let phone = MarkSyncTestDevice("phone"), laptop = MarkSyncTestDevice("laptop")
        phone.mark("v", .unwatched)
        _ = try await server.sync(phone).run()
        _ = try await server.sync(laptop).run()
        // When they mark it differently and push one after the other
        phone.mark("v", .watched)
        laptop.mark("v", .skipped)
        _ = try await server.sync(phone).run()
        let report = try await server.sync(laptop).run()
        // Then the laptop shows a conflict holding both values
        let conflicted = try #require(laptop.allMarks["v"])
        #expect(report.conflicts == 1)
        #expect(conflicted.syncState == .conflict && conflicted.status == .skipped && conflicted.theirs?.status == .watched)

        // When the user resolves it on the laptop by marking skipped again, and both sync
        laptop.mark("v", .skipped)
        _ = try await server.sync(laptop).run()
        _ = try await server.sync(phone).run()
        // Then everyone holds skipped, synced
        #expect(laptop.allMarks["v"]?.syncState == .synced)
        #expect(phone.allMarks["v"]?.status == .skipped && phone.allMarks["v"]?.syncState == .synced)
        #expect(try await server.serverStatuses() == ["v": "skipped"])
        await server.server.stop()
    }

    @Test("same video, same value: no conflict")
    func sameValue() async throws {
        let server = try await MarkSyncTestServer.start()
        // Given both devices mark v watched offline
        let phone = MarkSyncTestDevice("phone"), laptop = MarkSyncTestDevice("laptop")
        phone.mark("v", .watched)
        laptop.mark("v", .watched)
        // When both sync
        _ = try await server.sync(phone).run()
        let report = try await server.sync(laptop).run()
        // Then neither is in conflict
        #expect(report.conflicts == 0)
        #expect(laptop.allMarks["v"]?.syncState == .synced && phone.allMarks["v"]?.syncState == .synced)
        await server.server.stop()
    }

    @Test("a device a day ahead cannot win over a later edit under newest")
    func clockSkew() async throws {
        let server = try await MarkSyncTestServer.start()
        let day: Int64 = 86_400_000
        // Given a device whose clock runs a day ahead marks v watched, pushes, but never saves the acknowledgement
        let ahead = MarkSyncTestDevice("ahead", wallClock: { HybridLogicalClock.systemMillis() + day })
        let normal = MarkSyncTestDevice("normal")
        let first = ahead.mark("v", .watched)
        ahead.crashesBeforeSaving = true
        _ = try await server.sync(ahead, policy: .newest).run()
        ahead.crashesBeforeSaving = false
        // When the other device pulls that, marks v skipped later, and pushes
        _ = try await server.sync(normal, policy: .newest).run()
        normal.mark("v", .skipped)
        _ = try await server.sync(normal, policy: .newest).run()
        // And the ahead device pushes its stale copy again
        _ = try await server.sync(ahead, policy: .newest).run()
        // Then the later edit (skipped) wins everywhere
        #expect(try #require(normal.allMarks["v"]).hlc > first.hlc)
        #expect(ahead.allMarks["v"]?.status == .skipped && ahead.allMarks["v"]?.syncState == .synced)
        #expect(try await server.serverStatuses() == ["v": "skipped"])
        await server.server.stop()
    }

    @Test("killed between push and acknowledgement, or between pull and token save: nothing lost or duplicated")
    func crashes() async throws {
        let server = try await MarkSyncTestServer.start()
        // Given a device that dies before saving the push results
        let phone = MarkSyncTestDevice("phone"), laptop = MarkSyncTestDevice("laptop")
        for index in 0..<30 { phone.mark("v\(index)", index % 2 == 0 ? .watched : .skipped) }
        phone.crashesBeforeSaving = true
        _ = try await server.sync(phone).run()
        // And a device that dies before saving a pulled page
        laptop.crashesBeforeSaving = true
        _ = try await server.sync(laptop, batchSize: 7).run()
        // When both restart and sync
        phone.crashesBeforeSaving = false
        laptop.crashesBeforeSaving = false
        let phoneReport = try await server.sync(phone).run()
        _ = try await server.sync(laptop, batchSize: 7).run()
        // Then every mark is synced on both, with no conflict, and the server holds exactly 30 records
        #expect(phoneReport.conflicts == 0)
        #expect(phone.allMarks.values.allSatisfy { $0.syncState == .synced })
        #expect(laptop.allMarks.mapValues(\.status) == phone.allMarks.mapValues(\.status))
        #expect(try await server.serverStatuses().count == 30)
        await server.server.stop()
    }

    @Test("a batch over the server's limit is split in half until it fits")
    func splitOnLimit() async throws {
        // Given a server taking at most 40 operations per request and a device with 150 marks
        let server = try await MarkSyncTestServer.start(configuration: MarkSyncConfiguration(maxOperationsPerRequest: 40, requestsPerSecond: nil))
        let phone = MarkSyncTestDevice("phone")
        for index in 0..<150 { phone.mark("v\(index)", .watched) }
        // When it pushes in batches of 200
        let report = try await server.sync(phone, batchSize: 200).run()
        // Then everything arrives
        #expect(report.pushed == 150)
        #expect(try await server.serverStatuses().count == 150)
        await server.server.stop()
    }

    @Test("randomized convergence: 3 devices, random marks and sync orders, every device equals the server")
    func randomized() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let server = try await MarkSyncTestServer.start()
        // Given three devices under policy newest
        let devices = (0..<3).map { MarkSyncTestDevice("device\($0)") }
        let statuses = WatchStatus.allCases
        // When 600 random marks on 40 videos interleave with random syncs
        for _ in 0..<600 {
            let device = devices[Int(random.next() % 3)]
            device.mark("v\(random.next() % 40)", statuses[Int(random.next() % 3)])
            if random.next() % 10 == 0 { _ = try await server.sync(device, policy: .newest).run() }
        }
        for _ in 0..<3 { for device in devices { _ = try await server.sync(device, policy: .newest).run() } }
        // Then every device holds the server's values, all synced
        let onServer = try await server.serverStatuses()
        for device in devices {
            #expect(device.allMarks.mapValues(\.status.rawValue) == onServer, "seed \(seed)")
            #expect(device.allMarks.values.allSatisfy { $0.syncState == .synced }, "seed \(seed)")
        }
        await server.server.stop()
    }
}

@Suite("Status sync under faults")
struct MarkSyncFaultTests {
    @Test("randomized: 3 devices, 2,000 marks, offline windows and injected faults; every device ends equal to the server and the newest mark of each video wins")
    func randomizedWithFaults() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let faults = MarkSyncFaultInjector(seed: seed &+ 1, rate: 0.15)
        let server = try await MarkSyncTestServer.start(firstMiddleware: faults)
        // Given three devices under policy newest, each sometimes offline
        let devices = (0..<3).map { MarkSyncTestDevice("device\($0)") }
        var offline = [false, false, false]
        var newest: [String: Mark] = [:]
        var failedRuns = 0
        // When 2,000 random marks on 60 videos interleave with syncs that meet faults
        for _ in 0..<2000 {
            let index = Int(random.next() % 3)
            let mark = devices[index].mark("v\(random.next() % 60)", WatchStatus.allCases[Int(random.next() % 3)])
            if newest[mark.videoID].map({ mark.isNewer(than: $0) }) ?? true { newest[mark.videoID] = mark }
            if random.next() % 50 == 0 { offline[index].toggle() }
            if !offline[index], random.next() % 10 == 0 {
                do { _ = try await server.sync(devices[index], policy: .newest).run() } catch { failedRuns += 1 }
            }
        }
        // And everyone comes back online with the faults gone
        faults.isEnabled = false
        for _ in 0..<3 { for device in devices { _ = try await server.sync(device, policy: .newest).run() } }
        // Then every device equals the server, all synced, and each video holds its newest mark
        let onServer = try await server.serverStatuses()
        #expect(onServer == newest.mapValues(\.status.rawValue), "seed \(seed)")
        for device in devices {
            #expect(device.allMarks.mapValues(\.status.rawValue) == onServer, "seed \(seed)")
            #expect(device.allMarks.values.allSatisfy { $0.syncState == .synced }, "seed \(seed)")
        }
        print("status fault run: seed \(seed), \(failedRuns) sync runs gave up under faults")
        await server.server.stop()
    }
}
