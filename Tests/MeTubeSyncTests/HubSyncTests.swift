import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

@Suite struct HubSyncTests {
    typealias Support = HubSyncTestSupport
    static let library = SyntheticLibrary(channelCount: 216, videoCount: 10_800, markCount: 0, newest: Date())

    @Test func firstSyncOf216ChannelsThenAnIncrementalOne() async throws {
        // Given a hub holding 216 channels with 50 videos each, and an empty store following them
        let directory = TemporaryDirectory("metube-hub-sync")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(Self.library)
        let store = try Support.store(in: directory, following: Self.library.channels())
        let engine = SyncEngine(store: store, configuration: Support.configuration(hub.url, pageSize: 500))

        // When it syncs
        let first = await engine.sync()

        // Then every video arrives once, with the watermark at the hub's last seq
        #expect(first.error == nil)
        #expect(first.newVideos == 10_800)
        #expect(first.channelsRegistered == 216)
        #expect(store.library().videos.count == 10_800)
        #expect(store.syncSnapshot().hubWatermark == 10_800)
        #expect(Set(store.syncSnapshot().hubRegisteredChannelIDs) == Set(Self.library.channels().map(\.id)))
        #expect(await engine.health(of: .videoSource) == .online)

        // When three videos are published and it syncs again
        _ = try await hub.repository.ingest(FeedIngestion(channelID: Self.library.channels()[0].id, channelTitle: nil, videos: Support.freshVideos(3, from: 20_000, of: SyntheticLibrary(channelCount: 1))))
        let second = await engine.sync()

        // Then only those arrive, with one register and one query request
        #expect(second.newVideos == 3)
        #expect(second.requests == 2)
        #expect(store.library().videos.count == 10_803)
        #expect(store.syncSnapshot().hubWatermark == 10_803)
    }

    @Test func anInterruptedSyncResumesWithoutDuplicatesOrGapsAndSeesVideosIngestedMeanwhile() async throws {
        // Given a hub with 10,800 videos and a store following its channels, paging 100 at a time
        let directory = TemporaryDirectory("metube-hub-resume")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(Self.library)
        let store = try Support.store(in: directory, following: Self.library.channels())
        let engine = SyncEngine(store: store, configuration: Support.configuration(hub.url, pageSize: 100))

        // When new videos are ingested while it pages and the run is cancelled after a few pages
        let listener = Task {
            for await event in engine.events {
                guard case .progress(_, let message) = event else { continue }
                if message.hasPrefix("page 3:") {
                    _ = try await hub.repository.ingest(FeedIngestion(channelID: Self.library.channels()[1].id, channelTitle: nil, videos: Support.freshVideos(5, from: 30_000, of: Self.library)))
                }
                if message.hasPrefix("page 5:") {
                    await engine.cancel()
                    return
                }
            }
        }
        let interrupted = await engine.sync()
        try await listener.value

        // Then it stopped early, and what it stored is exactly the rows up to its watermark
        #expect(interrupted.cancelled)
        let watermark = store.syncSnapshot().hubWatermark
        #expect(watermark >= 400 && watermark < 10_800)
        #expect(store.library().videos.allSatisfy { ($0.hubSeq ?? .max) <= watermark })
        #expect(Int64(store.library().videos.count) == watermark)

        // When a new process opens the store and syncs again
        let reopened = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))
        let resumed = await SyncEngine(store: reopened, configuration: Support.configuration(hub.url, pageSize: 100)).sync()

        // Then everything arrives exactly once, including the videos ingested meanwhile
        #expect(resumed.error == nil && !resumed.cancelled)
        #expect(reopened.library().videos.count == 10_805)
        #expect(resumed.newVideos == 10_805 - Int(watermark))
        #expect(reopened.syncSnapshot().hubWatermark == 10_805)
    }

    @Test func aResetHubIsNoticedAndEverythingIsRegisteredAndFetchedAgain() async throws {
        // Given a store fully synced with a hub
        let directory = TemporaryDirectory("metube-hub-reset")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 12, videoCount: 600, markCount: 0, newest: Date())
        let old = try await LiveHub.start(in: directory, name: "old")
        try await old.seed(library)
        let store = try Support.store(in: directory, following: library.channels())
        _ = await SyncEngine(store: store, configuration: Support.configuration(old.url)).sync()
        old.stop()
        #expect(store.syncSnapshot().hubWatermark == 600)

        // When the hub is replaced by an empty one that ingests only half of the videos again
        let fresh = try await LiveHub.start(in: directory, name: "fresh")
        defer { fresh.stop() }
        try await fresh.seed(SyntheticLibrary(channelCount: 12, videoCount: 300, markCount: 0, newest: library.newest), registering: false)
        _ = try await fresh.repository.ingest(FeedIngestion(channelID: library.channels()[0].id, channelTitle: nil, videos: Support.freshVideos(2, from: 50_000, of: SyntheticLibrary(channelCount: 1))))
        let report = await SyncEngine(store: store, configuration: Support.configuration(fresh.url)).sync()

        // Then the sync notices, registers again, and fetches from the start: the new videos arrive
        #expect(report.hubWasReset)
        #expect(report.error == nil)
        #expect(report.newVideos == 2)
        #expect(try await fresh.repository.registeredChannelIDs().count == 12)
        #expect(store.syncSnapshot().hubWatermark == 302)
        #expect(store.library().videos.count == 602)
    }

    @Test func aChannelAddedLaterGetsItsBacklog() async throws {
        // Given a store synced with 5 of a hub's 6 channels
        let directory = TemporaryDirectory("metube-hub-backlog")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 6, videoCount: 120, markCount: 0, newest: Date())
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(library)
        let channels = library.channels()
        let store = try Support.store(in: directory, following: Array(channels.prefix(5)))
        let engine = SyncEngine(store: store, configuration: Support.configuration(hub.url, pageSize: 7))
        _ = await engine.sync()
        #expect(store.library().videos.count == 100)

        // When the sixth channel is followed and it syncs
        try store.apply(StoreChange(channels: [channels[5]]))
        let report = await engine.sync()

        // Then the sixth channel's older videos arrive too
        #expect(report.newVideos == 20)
        #expect(store.library().videos.count == 120)
    }

    @Test func overlappingRequestsCoalesceIntoOneFollowUpRun() async throws {
        let directory = TemporaryDirectory("metube-hub-coalesce")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 20, videoCount: 2_000, markCount: 0, newest: Date())
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(library)
        let store = try Support.store(in: directory, following: library.channels())
        let engine = SyncEngine(store: store, configuration: Support.configuration(hub.url, pageSize: 50))

        // When five syncs are requested at once
        let reports = await withTaskGroup(of: SyncReport.self) { group in
            for _ in 0..<5 { group.addTask { await engine.sync() } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        // Then at most two runs happened (the first and one follow-up), none failed, nothing was lost
        #expect(Set(reports.map(\.run)).count <= 2)
        #expect(reports.allSatisfy { $0.error == nil })
        #expect(reports.map(\.newVideos).reduce(0, +) >= 2_000)
        #expect(store.library().videos.count == 2_000)
    }

    @Test func aThousandChannelsStayWithinThePerRequestLimits() async throws {
        // Given a hub and a store with 1,000 channels (more than one register request and more than
        // one query's channel list can carry)
        let directory = TemporaryDirectory("metube-hub-1000")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 1_000, videoCount: 3_000, markCount: 0, newest: Date())
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(library, registering: false)
        let store = try Support.store(in: directory, following: library.channels())

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url, pageSize: 500)).sync()

        // Then registration took two requests, every channel is registered, and every video arrived
        #expect(report.error == nil)
        #expect(report.channelsRegistered == 1_000)
        #expect(try await hub.repository.registeredChannelIDs().count == 1_000)
        #expect(store.library().videos.count == 3_000)
        #expect(report.requests == 2 + 7)
    }

    @Test func withoutAHubURLTheSyncSaysSo() async throws {
        let directory = TemporaryDirectory("metube-hub-nourl")
        defer { directory.remove() }
        let store = try Support.store(in: directory, following: SyntheticLibrary(channelCount: 1).channels())
        let report = await SyncEngine(store: store, configuration: SyncConfiguration(source: .hub)).sync()
        #expect(report.error == .notConfigured("no hub URL; set [hub] url in the config file"))
        #expect(!report.errorIsRetryable)
    }
}
