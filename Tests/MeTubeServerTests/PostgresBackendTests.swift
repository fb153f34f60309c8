import Foundation
import Hummingbird
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
@testable import MeTubeServer
import PostgresNIO
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// What only the PostgreSQL backend has: URL parsing, migrations shared by instances, and
/// readers that never miss a row while several instances write at once. The behaviour both
/// backends share is tested by the repository and route suites over ``HubStorage`` and
/// ``MarkSyncStorage``.
@Suite("PostgreSQL backend")
struct PostgresBackendTests {
    @Test("database URLs: user, password, port, database and sslmode are read; the default port is 5432")
    func urls() throws {
        let full = try PostgresDatabaseURL(parsing: "postgresql://hub:s%40cret@db.example.org:6543/metube?sslmode=require")
        #expect(full == PostgresDatabaseURL.expected(host: "db.example.org", port: 6543, user: "hub", password: "s@cret", database: "metube", tls: .require))
        #expect(full.description == "postgres://hub@db.example.org:6543/metube?sslmode=require")
        let short = try PostgresDatabaseURL(parsing: "postgres://hub@127.0.0.1/metube")
        #expect(short == PostgresDatabaseURL.expected(host: "127.0.0.1", port: 5432, user: "hub", password: nil, database: "metube", tls: .prefer))
    }

    @Test("a database URL that is not one the server can use is refused, naming what is wrong and never the password", arguments: [
        ("mysql://hub@host/db", "must start with postgres://"),
        ("postgres://host/db", "names no user"),
        ("postgres://hub@host", "must name exactly one database"),
        ("postgres://hub@host/a/b", "must name exactly one database"),
        ("postgres://hub@host/db?sslmode=sometimes", "sslmode=sometimes"),
        ("postgres://hub@host/db?connect_timeout=3", "unknown parameter connect_timeout"),
        ("postgres://hub:hunter2@host:99999/db", "99999"),
        ("not a url", "postgres://"),
    ])
    func badURLs(text: String, reason: String) {
        do {
            _ = try PostgresDatabaseURL(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test("an unreachable database fails at start with the reason")
    func unreachable() async throws {
        let url = try PostgresDatabaseURL(parsing: "postgres://metube@127.0.0.1:1/none?sslmode=disable")
        await #expect {
            _ = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)
        } throws: { error in
            "\(error)".contains("cannot connect to the database postgres://metube@127.0.0.1:1/none")
        }
    }

    @Test("instances starting at once on one database migrate it once; a database migrated by a newer server is refused")
    func migrations() async throws {
        // Given a fresh database and four instances starting at once
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let instances = try await withThrowingTaskGroup(of: PostgresServerDatabase.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresServerDatabase.forTests(url: url, poolSize: 2) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then every step is recorded once, and all of them work on the same tables
        let names = try await instances[0].query("SELECT name FROM metube_migrations ORDER BY name").map { try $0.decode(String.self) }
        #expect(names == PostgresMigrations.steps.map(\.name).sorted())
        _ = try await PostgresHubRepository(database: instances[1]).register(channelIDs: [DemoCatalog.channelID(1)])
        #expect(try await PostgresHubRepository(database: instances[3]).registeredChannelIDs() == [DemoCatalog.channelID(1)])

        // When a newer server has added a step, an older one refuses to start
        _ = try await instances[0].query("INSERT INTO metube_migrations (name) VALUES ('zz-999-from-the-future')")
        await #expect {
            _ = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)
        } throws: { error in
            "\(error)".contains("newer metube-server")
        }
    }

    @Test("every step name says PostgreSQL; a database migrated under the former names still opens, its steps renamed and none run again")
    func formerStepNames() async throws {
        // Given a database migrated before the step names started with postgres-
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let first = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)
        #expect(PostgresMigrations.steps.allSatisfy { $0.name.hasPrefix("postgres-") })
        for step in PostgresMigrations.steps {
            if let former = step.formerName {
                _ = try await first.query("UPDATE metube_migrations SET name = \(former) WHERE name = \(step.name)")
            } else {
                // (a step added after the renaming never had a former name: such a database lacks it)
                _ = try await first.query("DELETE FROM metube_migrations WHERE name = \(step.name)")
            }
        }
        _ = try await PostgresHubRepository(database: first).register(channelIDs: [DemoCatalog.channelID(2)])

        // When a server opens it (a step run again would fail: its tables exist)
        let reopened = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)

        // Then the steps carry their new names, and the data is there
        let names = try await reopened.query("SELECT name FROM metube_migrations ORDER BY name").map { try $0.decode(String.self) }
        #expect(names == PostgresMigrations.steps.map(\.name).sorted())
        #expect(try await PostgresHubRepository(database: reopened).registeredChannelIDs() == [DemoCatalog.channelID(2)])
    }

    @Test("4 instances ingest at once while readers page with small limits: every reader sees every video exactly once, in seq order")
    func concurrentIngestAndPaging() async throws {
        // Given one database shared by 4 writing instances and 3 reading ones
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        var writers: [PostgresHubRepository] = []
        for _ in 0..<4 { writers.append(PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 2))) }
        var readers: [PostgresHubRepository] = []
        for _ in 0..<3 { readers.append(PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1))) }
        let channels = (0..<4).map { DemoCatalog.channelID(100 + $0) }
        _ = try await writers[0].register(channelIDs: channels)
        let perWriter = 90
        let done = Done()

        // When each writer ingests its channel's videos two at a time while the readers page by 3
        let seen = try await withThrowingTaskGroup(of: [HubVideo]?.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    for start in stride(from: 0, to: perWriter, by: 2) {
                        let videos = (start..<start + 2).map { HubTestSupport.video(index * 1_000 + $0, channel: channels[index]) }
                        _ = try await writer.ingest(FeedIngestion(channelID: channels[index], channelTitle: nil, videos: videos))
                    }
                    return nil
                }
            }
            for reader in readers {
                group.addTask {
                    var videos: [HubVideo] = []
                    var afterSeq: Int64 = 0
                    while true {
                        let finished = await done.value
                        let page = try await reader.videos(matching: HubVideoSelection(afterSeq: afterSeq, limit: 3))
                        videos += page.videos
                        afterSeq = page.maxSeqReturned
                        if page.videos.isEmpty && finished { return videos }
                    }
                }
            }
            var results: [[HubVideo]] = []
            var writersLeft = writers.count
            for try await result in group {
                if let result { results.append(result) } else {
                    writersLeft -= 1
                    if writersLeft == 0 { await done.set() }
                }
            }
            return results
        }

        // Then each reader got all 360 videos once, in strictly increasing seq order
        let expected = Set((0..<4).flatMap { index in (0..<perWriter).map { HubTestSupport.video(index * 1_000 + $0, channel: channels[index]).id } })
        #expect(seen.count == readers.count)
        for videos in seen {
            #expect(videos.count == expected.count)
            #expect(expected.subtracting(videos.map(\.videoID)).count == 0, "videos this reader never saw")
            #expect(zip(videos, videos.dropFirst()).allSatisfy { $0.seq < $1.seq })
        }
    }

    @Test("2 instances write one zone at once while a reader follows changes/zone with small pages: it sees every record once")
    func concurrentMarkSyncChanges() async throws {
        // Given one user on a database shared by two instances, and a third that reads
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let first = MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 2)))
        let second = MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 2)))
        let reader = MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1)))
        let token = try await first.addUser(name: "dana")
        func caller(_ service: MarkSyncService) async throws -> MarkSyncCaller {
            try await service.authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        }
        let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        _ = try await first.modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]), caller: try await caller(first))
        let writers = [(first, try await caller(first)), (first, try await caller(first)), (second, try await caller(second)), (second, try await caller(second))]
        let readerCaller = try await caller(reader)
        let perWriter = 40
        let done = Done()

        // When 4 writers (2 per instance) create records one at a time while the reader pages by 3
        let names = try await withThrowingTaskGroup(of: [String]?.self) { group in
            for (index, (service, caller)) in writers.enumerated() {
                group.addTask {
                    for number in 0..<perWriter {
                        let request = MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("w\(index)-\(number)"))], zoneID: zoneID)
                        _ = try await service.modifyRecords(request, bodyBytes: 0, caller: caller)
                    }
                    return nil
                }
            }
            group.addTask {
                var names: [String] = []
                var token: String?
                while true {
                    let finished = await done.value
                    let answer = try await reader.zoneChanges(
                        MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: 3)]), caller: readerCaller)
                    guard case .success(let changes) = answer.zones.first else { throw PostgresTestFailure("changes/zone failed: \(answer)") }
                    names += changes.records.compactMap(\.recordName)
                    token = changes.syncToken
                    if changes.records.isEmpty && !changes.moreComing && finished { return names }
                }
            }
            var result: [String] = []
            var writersLeft = writers.count
            for try await names in group {
                if let names { result = names } else {
                    writersLeft -= 1
                    if writersLeft == 0 { await done.set() }
                }
            }
            return result
        }

        // Then it saw each of the 160 records exactly once
        let expected = (0..<writers.count).flatMap { index in (0..<perWriter).map { "w\(index)-\($0)" } }
        #expect(names.count == expected.count)
        #expect(Set(expected).subtracting(names).count == 0, "records the reader never saw")
    }

    @Test("fetch records: the last fetch time, failures in a row and the last reason, reset by a success; unknown channels ignored")
    func fetchRecords() async throws {
        // Given two registered channels
        let database = try await PostgresServerDatabase.forTests()
        let repository = PostgresHubRepository(database: database)
        let (one, two) = (DemoCatalog.channelID(1), DemoCatalog.channelID(2))
        _ = try await repository.register(channelIDs: [one, two])

        // When one fails twice, the other fails and then succeeds, and an unknown channel is recorded
        let at = Date(timeIntervalSince1970: 1_765_000_000)
        try await repository.recordFetches([
            ChannelFetchRecord(channelID: one, fetchedAt: at, failure: "HTTP 500"),
            ChannelFetchRecord(channelID: two, fetchedAt: at, failure: "timeout"),
            ChannelFetchRecord(channelID: DemoCatalog.channelID(3), fetchedAt: at, failure: nil),
        ])
        try await repository.recordFetches([
            ChannelFetchRecord(channelID: one, fetchedAt: at.addingTimeInterval(60), failure: "HTTP 503"),
            ChannelFetchRecord(channelID: two, fetchedAt: at.addingTimeInterval(60), failure: nil),
        ])

        // Then each channel holds its last fetch, its failures in a row and its last reason
        let rows = try await database.query(
            "SELECT channel_id, last_fetch_millis, consecutive_failures, last_failure FROM hub_channels ORDER BY channel_id"
        ).map { try $0.decode((String, Int64?, Int64, String?).self) }
        let expected: [(String, Int64?, Int64, String?)] = [(one, 1_765_000_060_000, 2, "HTTP 503"), (two, 1_765_000_060_000, 0, "timeout")].sorted { $0.0 < $1.0 }
        #expect(rows.count == 2)
        for (row, want) in zip(rows, expected) {
            #expect(row.0 == want.0 && row.1 == want.1 && row.2 == want.2 && row.3 == want.3, "\(row)")
        }
    }

    @Test("feed polling is shared by leases: a round fetches each channel once across instances; a dead instance's channels are taken over when its leases run out")
    func feedLeases() async throws {
        // Given a loopback feed server that counts requests per channel
        let requests = RequestCounter()
        let router = Router()
        router.get("/feeds/:channelId") { _, context -> Response in
            requests.count(try context.parameters.require("channelId"))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title></feed>")))
        }
        let (server, baseURL) = await BackgroundService.serve(router, label: "feeds")
        defer { server.stop() }

        // And two instances on one database with 40 channels, their leases on a clock the test moves
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let clock = TestClock()
        var logger = Logger(label: "metube-test.ingest")
        logger.logLevel = .critical
        var instances: [(leases: PostgresFeedLeases, ingester: FeedIngester)] = []
        for name in ["A", "B"] {
            let database = try await PostgresServerDatabase.forTests(url: url, poolSize: 2)
            let leases = PostgresFeedLeases(database: database, pollInterval: .seconds(900), holder: name, now: { clock.now })
            instances.append((leases, FeedIngester(
                repository: PostgresHubRepository(database: database), feedURLTemplate: baseURL + "/feeds/{channelId}",
                pollInterval: .seconds(900), concurrency: 4, leases: leases, logger: logger)))
        }
        let channels = (0..<40).map { DemoCatalog.channelID(500 + $0) }
        _ = try await PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1)).register(channelIDs: channels)

        // When both poll at once
        let (a, b) = (instances[0].ingester, instances[1].ingester)
        async let first = a.poll()
        async let second = b.poll()
        let rounds = await [first, second]

        // Then every channel was fetched exactly once, by one of them
        #expect(requests.counts == Dictionary(uniqueKeysWithValues: channels.map { ($0, 1) }))
        #expect(rounds.map(\.fetched).reduce(0, +) == channels.count)

        // When, an interval later, A leases every channel and dies before fetching them
        clock.advance(by: 900)
        #expect(await instances[0].leases.claim(from: channels, limit: channels.count)?.channelIDs.count == channels.count)
        let whileLeased = await instances[1].ingester.poll()

        // Then B leaves them alone while A's leases last, and takes all of them once they ran out
        #expect(whileLeased.fetched == 0)
        #expect(whileLeased.deferred == channels.count)
        clock.advance(by: 900 * PostgresFeedLeases.leaseFraction)
        let takenOver = await instances[1].ingester.poll()
        #expect(takenOver.fetched == channels.count)
        #expect(requests.counts == Dictionary(uniqueKeysWithValues: channels.map { ($0, 2) }))
    }

    /// 6 instances' feed leases on one database, sharing one clock, and `channels` registered
    /// channels numbered from `firstChannel`.
    fileprivate static func claimingInstances(channels count: Int, firstChannel: Int) async throws -> (TestClock, [PostgresFeedLeases], [String]) {
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let clock = TestClock()
        var instances: [PostgresFeedLeases] = []
        for index in 0..<6 {
            let database = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)
            instances.append(PostgresFeedLeases(database: database, pollInterval: .seconds(60), holder: "instance-\(index)", now: { clock.now }))
        }
        let channels = (0..<count).map { DemoCatalog.channelID(firstChannel + $0) }
        _ = try await PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1)).register(channelIDs: channels)
        return (clock, instances, channels)
    }

    @Test("6 instances claiming the same due channels at once: each channel is leased by exactly one of them, round after round")
    func simultaneousClaims() async throws {
        // Given 60 channels and 6 instances whose leases share one clock
        let (clock, instances, channels) = try await Self.claimingInstances(channels: 60, firstChannel: 700)

        for _ in 0..<10 {
            // When all of them claim at once, an interval after the last round
            clock.advance(by: 60)
            let claims = await withTaskGroup(of: [String].self) { group in
                for leases in instances { group.addTask { await leases.claim(from: channels, limit: channels.count)?.channelIDs ?? [] } }
                return await group.reduce(into: []) { $0.append($1) }
            }

            // Then the claims split the channels: none twice, none left out
            let claimed = claims.flatMap { $0 }
            #expect(claimed.count == channels.count)
            #expect(Set(claimed) == Set(channels))
        }
    }

    @Test("6 instances claiming the same due channels a few at a time: each channel is leased by exactly one of them, none is passed over")
    func simultaneousSmallClaims() async throws {
        // Given 300 channels and 6 instances whose leases share one clock
        let (clock, instances, channels) = try await Self.claimingInstances(channels: 300, firstChannel: 900)

        for _ in 0..<3 {
            // When all of them walk the channels at once, claiming 1 to 5 at a time, offering
            // the channels their claims have not settled yet, an interval after the last round
            clock.advance(by: 60)
            let claims = await withTaskGroup(of: [String].self) { group in
                for (index, leases) in instances.enumerated() {
                    group.addTask {
                        var unsettled = channels[...]
                        var claimed: [String] = []
                        while !unsettled.isEmpty, let claim = await leases.claim(from: Array(unsettled.prefix(40)), limit: 1 + index % 5) {
                            claimed += claim.channelIDs
                            unsettled = unsettled.dropFirst(max(1, claim.settled))
                        }
                        return claimed
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }

            // Then the claims split the channels: none twice, none left out, and more than one
            // instance took a share
            let claimed = claims.flatMap { $0 }
            #expect(claimed.count == channels.count)
            #expect(Set(claimed) == Set(channels))
            #expect(claims.filter { !$0.isEmpty }.count > 1)
        }
    }

    @Test("a videos/query page cached by one instance is answered anew once another instance inserts, renames or removes videos")
    func pageCacheAcrossInstances() async throws {
        // Given two instances on one database with 20 channels' videos, and a page that A
        // answered twice (so from its cache the second time)
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let a = PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 2))
        let b = PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 2))
        let service = HubService(repository: a)
        let library = SyntheticLibrary(channelCount: 20, videoCount: 200, markCount: 0)
        let channels = library.channels().map(\.id)
        _ = try await b.register(channelIDs: channels)
        let byChannel = Dictionary(grouping: library.videos().reversed(), by: \.channelID)
        for channel in library.channels() {
            _ = try await b.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: byChannel[channel.id] ?? []))
        }
        let selection = HubVideoSelection(channelIDs: channels, afterSeq: 190, limit: 50)
        let body = try HubPageCompatibilityTests.body(selection)
        func uncached() async throws -> String { String(buffer: HubJSONWriter.page(try await a.videos(matching: selection))) }
        let first = String(buffer: try await service.videoPage(body: body).bytes)
        #expect(String(buffer: try await service.videoPage(body: body).bytes) == first)
        #expect(first == (try await uncached()))
        let version = try #require(try await a.videosVersion())

        // When B ingests a feed that changes nothing, the version stays and so does the page
        _ = try await b.ingest(FeedIngestion(channelID: channels[1], channelTitle: nil, videos: byChannel[channels[1]] ?? []))
        #expect(try await a.videosVersion() == version)

        // When B inserts a video, then A's next answer to the same body holds it
        var upload = library.video(0)
        upload.id = "newUpload01"
        upload.title = "inserted by B"
        _ = try await b.ingest(FeedIngestion(channelID: upload.channelID, channelTitle: nil, videos: [upload]))
        let afterInsert = String(buffer: try await service.videoPage(body: body).bytes)
        #expect(afterInsert.contains("inserted by B"))
        #expect(afterInsert == (try await uncached()))

        // When B renames a video, then A's next answer has the new title
        var renamed = library.video(7)
        renamed.title = "renamed by B"
        _ = try await b.ingest(FeedIngestion(channelID: renamed.channelID, channelTitle: nil, videos: [renamed]))
        let afterRename = String(buffer: try await service.videoPage(body: body).bytes)
        #expect(afterRename.contains("renamed by B"))
        #expect(afterRename == (try await uncached()))

        // When `metube-server channels remove` deletes a channel's videos, then A's next answer
        // is without them
        #expect(try await PostgresAdministration(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1)).removeChannel(id: upload.channelID))
        let afterRemoval = String(buffer: try await service.videoPage(body: body).bytes)
        #expect(!afterRemoval.contains(upload.channelID))
        #expect(afterRemoval == (try await uncached()))
        #expect(try await a.videosVersion() ?? 0 > version)
    }

    @Test("users, tokens and change tags written by one instance work on another")
    func sharedMarkSync() async throws {
        // Given a user, a zone and a record written through one instance
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let first = MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1)))
        let (token, caller, tag) = try await first.carolWithRecordV1()

        // When another instance authenticates the token and updates the record with the tag
        let second = MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1)))
        let (again, updated) = try await second.updateV1ToSkipped(token: token, tag: tag)

        // Then both work, and the first instance sees the change
        #expect(again.user == caller.user)
        #expect(updated.records.first?.record.flatMap(WatchedRecord.init)?.status == "skipped")
        let changes = try await first.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncService.watchedZone)]), caller: caller)
        guard case .success(let zone) = changes.zones.first else { Issue.record("no changes"); return }
        #expect(zone.records.compactMap(WatchedRecord.init).map(\.status) == ["skipped"])
    }
}

/// Requests per channel seen by the test feed server.
private final class RequestCounter: Sendable {
    private let storage = Mutex<[String: Int]>([:])
    var counts: [String: Int] { storage.withLock { $0 } }
    func count(_ channelID: String) { storage.withLock { $0[channelID, default: 0] += 1 } }
}

/// A wall clock that only moves when the test moves it.
private final class TestClock: Sendable {
    private let storage = Mutex(Date(timeIntervalSince1970: 1_765_000_000))
    var now: Date { storage.withLock { $0 } }
    func advance(by seconds: Double) { storage.withLock { $0 += seconds } }
}

/// A flag the writers' task sets when all of them are done.
private actor Done {
    private(set) var value = false
    func set() { value = true }
}

/// A test failure with a message.
private struct PostgresTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension PostgresDatabaseURL {
    /// The URL the test expects, built from its parts.
    fileprivate static func expected(host: String, port: Int, user: String, password: String?, database: String, tls: TLSMode) -> PostgresDatabaseURL {
        var url = try! PostgresDatabaseURL(parsing: "postgres://x@x/x")
        url.host = host
        url.port = port
        url.user = user
        url.password = password
        url.database = database
        url.tls = tls
        return url
    }
}
