import Foundation
import Glibc
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import MeTubeSync
import ServerTestSupport
import TestSupport
import Testing

@Suite("Status sync in the SyncEngine")
struct MarkSyncEngineTests {
    /// Short waits, so probes and the reconnect debounce do not slow the tests down.
    static let fastConfiguration = SyncConfiguration(reconnectDebounce: .milliseconds(10), probeDelays: [.milliseconds(10)], hubInterval: nil, markSyncInterval: nil)

    @Test("an engine with only a status service syncs marks, and does not try to sync videos")
    func engineRunsMarkSyncOnly() async throws {
        // Given a store with a pending mark and an engine that has a mark sync but no hub
        let server = try await MarkSyncTestServer.start()
        let store = try Self.temporaryStore()
        try store.mark("v1", as: .skipped)
        let engine = SyncEngine(store: store, configuration: Self.fastConfiguration, markSync: server.sync(store))
        // When it syncs
        let report = await engine.sync()
        await engine.shutdown()
        // Then no video sync was attempted, and the mark was pushed and is synced
        #expect(report.error == nil && !report.includesVideos)
        #expect(report.markSync?.pushed == 1 && report.markSyncError == nil)
        #expect(store.library().marks["v1"]?.syncState == .synced)
        #expect(try await server.serverStatuses() == ["v1": "skipped"])
        await server.server.stop()
    }

    @Test("a started engine syncs marks every status interval without being asked")
    func periodicMarkSync() async throws {
        // Given a started engine syncing marks every 20 ms
        let server = try await MarkSyncTestServer.start()
        let store = try Self.temporaryStore()
        var configuration = Self.fastConfiguration
        configuration.markSyncInterval = .milliseconds(20)
        let engine = SyncEngine(store: store, configuration: configuration, markSync: server.sync(store))
        let pushed = Self.firstReport(of: engine) { ($0.markSync?.pushed ?? 0) > 0 }
        await engine.start()
        // When a mark is made and nobody asks for a sync
        try store.mark("v2", as: .watched)
        // Then a periodic run pushes it
        let report = await pushed.value
        await engine.shutdown()
        #expect(report?.markSync?.pushed == 1)
        #expect(store.library().marks["v2"]?.syncState == .synced)
        await server.server.stop()
    }

    @Test("while the status service is down marks show offline; when it returns they flush by themselves")
    func offlineThenReconnect() async throws {
        // Given a mark-sync service whose server is not running yet, and a pending mark
        let service = MarkSyncService(repository: try SQLiteMarkSyncRepository(), configuration: MarkSyncConfiguration(requestsPerSecond: nil))
        let token = try await service.addUser(name: "user")
        let port = try Self.unusedLoopbackPort()
        let client = MarkSyncClient(
            endpoint: MarkSyncEndpoint(serverURL: "http://127.0.0.1:\(port)", environment: "development"), userToken: token,
            timeoutSeconds: 5, retryPolicy: MarkSyncTestServer.fastRetries
        )
        let store = try Self.temporaryStore()
        try store.mark("v3", as: .watched)
        let engine = SyncEngine(store: store, configuration: Self.fastConfiguration, markSync: MarkSync(client: client, store: store))
        // When a sync fails to reach it
        let failed = await engine.sync(.markSync)
        // Then the service is offline, persisted in the store, and the mark displays offline
        #expect(failed.markSyncError != nil)
        guard await engine.health(of: .markSyncService).offlineSince != nil else {
            Issue.record("the status service should be offline")
            return
        }
        #expect(store.syncSnapshot().markSyncOfflineSince != nil)
        let mark = try #require(store.library().marks["v3"])
        #expect(mark.syncState.displayed(serviceReachable: false) == .offline)
        // When the server comes back on the same port
        let flushed = Self.firstReport(of: engine) { ($0.markSync?.pushed ?? 0) > 0 }
        let again = try await MarkSyncLoopbackServer.start(service: service, port: port)
        // Then a probe notices, and the mark is pushed without anyone asking
        let report = await flushed.value
        await engine.shutdown()
        #expect(report?.markSync?.pushed == 1)
        #expect(await engine.health(of: .markSyncService) == .online)
        #expect(store.syncSnapshot().markSyncOfflineSince == nil)
        #expect(store.library().marks["v3"]?.syncState == .synced)
        await again.stop()
    }

    @Test("the periodic intervals come from [sync]; 0 turns one off; a bad value says what is expected")
    func intervalsFromConfig() throws {
        // Given config files with and without [sync] intervals
        let defaults = SyncConfiguration(settings: try Settings(parsing: ""))
        let custom = SyncConfiguration(settings: try Settings(parsing: "[sync]\nhub-interval = 600\nstatus-interval = 0\n"))
        // Then the defaults are an hour and 5 minutes, and the custom values are read
        #expect(defaults.hubInterval == .seconds(3600) && defaults.markSyncInterval == .seconds(300))
        #expect(custom.hubInterval == .seconds(600) && custom.markSyncInterval == nil)
        // When a value is not a number of seconds, Then the error names the key
        #expect(throws: SettingsError(location: "config.toml:2", setting: "[sync] status-interval",
                                      message: "must be a number of seconds from 1 to 604800, or 0 for never, not \"often\"")) {
            try Settings(parsing: "[sync]\nstatus-interval = \"often\"\n")
        }
    }

    /// A loopback port nothing listens on: bound once by the kernel's choice, then released.
    private static func unusedLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound, "could not reserve a loopback port")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func temporaryStore() throws -> Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Store.open(at: directory)
    }

    /// The first finished run of `engine` whose report matches `condition`, or `nil` when none
    /// does within 20 s (a failure, not a synchronisation wait).
    private static func firstReport(of engine: SyncEngine, where condition: @escaping @Sendable (SyncReport) -> Bool) -> Task<SyncReport?, Never> {
        Task {
            await withTaskGroup(of: SyncReport?.self) { group in
                group.addTask {
                    for await event in engine.events {
                        if case .finished(let report) = event, condition(report) { return report }
                    }
                    return nil
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(20))
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
    }
}
