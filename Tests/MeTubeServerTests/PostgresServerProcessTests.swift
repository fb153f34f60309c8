import Foundation
import AsyncHTTPClient
import Hummingbird
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
@testable import MeTubeServer
import MeTubeYouTube
import NIOCore
import NIOHTTP1
import ServerTestSupport
import TestSupport
import Testing

/// `--database`, `--database-pool` and `METUBE_DATABASE_URL` through the real executable.
@Suite struct PostgresServerProcessTests {
    @Test func badDatabaseOptionsAreRefusedWithAClearMessage() throws {
        let cases: [([String], [String: String], Int32, String)] = [
            (["--database", "postgres://hub:hunter2@host/db?sslmode=maybe"], [:], 64, "sslmode=maybe"),
            (["--database", "postgres://hub@host/db", "--db", "/tmp/hub.sqlite"], [:], 64, "give --database once (--db is its older spelling)"),
            (["--database-pool", "0"], [:], 64, "--database-pool must be 1…500"),
            ([], ["METUBE_DATABASE_URL": "mysql://hub@host/db"], 64, "$METUBE_DATABASE_URL"),
            (["--database", "postgres://hub@127.0.0.1:1/db?sslmode=disable", "--public-url", "https://hub.example.org", "--youtube-api-key", "AIzaGood_Key-123"], [:], 1,
             "cannot connect to the database postgres://hub@127.0.0.1:1/db"),
            (["--database", "postgres://hub@127.0.0.1:1/db?sslmode=disable"], [:], 1, "cannot connect to the database postgres://hub@127.0.0.1:1/db"),
        ]
        for (arguments, environment, status, message) in cases {
            let outcome = try runProcess(
                ProductBinary.url("metube-server"), ["serve", "--port", "0", "--poll-interval", "0"] + arguments, environment: environment)
            #expect(outcome.status == status, "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("hunter2"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func twoServersShareOneDatabase() async throws {
        // Given a user added through $METUBE_DATABASE_URL and two servers on the same database
        let url = try PostgresTestCluster.database()
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "erin"], environment: ["METUBE_DATABASE_URL": url])
        #expect(added.status == 0, "\(added.stderr)")
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let first = try ServerProcess(arguments: ["serve", "--port", "0", "--poll-interval", "0", "--database", url, "--database-pool", "2"])
        defer { first.kill() }
        let second = try ServerProcess(arguments: ["serve", "--port", "0", "--poll-interval", "0", "--database", url])
        defer { second.kill() }
        let one = "http://127.0.0.1:\(try await first.listening(within: .seconds(30)))"
        let two = "http://127.0.0.1:\(try await second.listening(within: .seconds(30)))"

        // When a channel is registered on the first and the user lists zones on the second
        let channel = DemoCatalog.channelID(42)
        let registered = try await Self.post(one + HubAPI.registerPath, HubRegisterRequest(channelIDs: [channel]))
        let listed = try await Self.post(two + HubAPI.channelsPath, HubChannelsRequest(limit: 10))
        let zones = try await Self.post(
            two + "/database/1/\(MarkSyncConfiguration.defaultContainer)/production/private/zones/list?ckAPIToken=metube&ckWebAuthToken=\(token)",
            nil as String?)

        // Then the second sees the channel and accepts the token the command added
        #expect(registered.status == .ok)
        #expect(try JSONDecoder().decode(HubChannelList.self, from: listed.body).channels.map(\.channelID) == [channel])
        #expect(zones.status == .ok, "\(String(decoding: zones.body, as: UTF8.self))")
    }

    @Test func usersAndChannelsAreAdministeredOnPostgreSQL() async throws {
        // Given a database with two users and a registered channel
        let url = try PostgresTestCluster.database()
        func admin(_ arguments: String...) throws -> ProcessOutcome {
            try runProcess(ProductBinary.url("metube-server"), arguments + ["--database", url], input: "")
        }
        let alice = try admin("users", "add", "alice").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try admin("users", "add", "bob")
        let channel = DemoCatalog.channelID(7)
        _ = try await PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: PostgresDatabaseURL(parsing: url), poolSize: 1))
            .register(channelIDs: [channel])

        // When the operator lists, rotates, removes and lists again
        let before = try admin("users", "list")
        let rotated = try admin("users", "rotate", "alice")
        let removed = try admin("users", "remove", "bob", "--yes")
        let unknown = try admin("users", "remove", "carol", "--yes")
        let after = try admin("users", "list")
        let channels = try admin("channels", "list")
        let channelRemoved = try admin("channels", "remove", channel)
        let noChannels = try admin("channels", "list")
        let backup = try admin("backup", "/tmp/metube-never-written.sqlite")

        // Then each does what it does on SQLite, and backup points to pg_dump
        #expect(before.status == 0 && before.stdout.contains("alice") && before.stdout.contains("bob"), "\(before.stderr)")
        let newToken = rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(rotated.status == 0 && newToken.count >= 32 && newToken != alice)
        #expect(removed.status == 0 && removed.stdout.contains("removed user bob"))
        #expect(unknown.status == 4 && unknown.stderr.contains("no user named carol"))
        #expect(after.stdout.contains("alice") && !after.stdout.contains("bob"))
        #expect(channels.status == 0 && channels.stdout.contains(channel), "\(channels.stderr)")
        #expect(channelRemoved.status == 0 && !noChannels.stdout.contains(channel))
        #expect(backup.status == 64 && backup.stderr.contains("pg_dump"))
    }

    @Test func migrateMovesAnSQLiteServerAndItsClientsCarryOn() async throws {
        // Given an SQLite hub with videos (one re-titled, so seqs have a gap) and a user whose
        // device synced a zone with a record, a tombstone and a deleted zone
        let directory = TemporaryDirectory("metube-migrate")
        defer { directory.remove() }
        let path = directory.path("hub.sqlite")
        let hub = try SQLiteHubRepository(path: path)
        let channel = DemoCatalog.channelID(3)
        _ = try await hub.register(channelIDs: [channel])
        _ = try await hub.ingest(FeedIngestion(channelID: channel, channelTitle: "Three", videos: (0..<5).map { HubTestSupport.video($0, channel: channel) }))
        _ = try await hub.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [HubTestSupport.video(1, channel: channel, title: "renamed")]))
        let sqliteVideos = try await hub.videos(matching: HubVideoSelection()).videos
        let service = MarkSyncService(repository: try SQLiteMarkSyncRepository(path: path))
        let token = try await service.addUser(name: "fay")
        let caller = try await service.authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        _ = try await service.modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID), .init(.create, zone: MarkSyncZoneID(zoneName: "Old"))]), caller: caller)
        _ = try await service.modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.delete, zone: MarkSyncZoneID(zoneName: "Old"))]), caller: caller)
        let created = try await service.modifyRecords(
            MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("v1")), .init(.create, record: watched("v2"))], zoneID: zoneID), bodyBytes: 0, caller: caller)
        let tag = try #require(created.records.first?.record?.recordChangeTag)
        _ = try await service.modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.forceDelete, record: watched("v2"))], zoneID: zoneID), bodyBytes: 0, caller: caller)
        let synced = try await service.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]), caller: caller)
        guard case .success(let before) = synced.zones.first else { Issue.record("no changes"); return }
        let database = try await service.databaseChanges(MarkSyncDatabaseChangesRequest(), caller: caller)

        // When it is migrated into PostgreSQL (and a second migration is tried)
        let url = try PostgresTestCluster.database()
        let migrated = try runProcess(ProductBinary.url("metube-server"), ["migrate", "--from", path, "--to", url])
        let again = try runProcess(ProductBinary.url("metube-server"), ["migrate", "--from", path, "--to", url])

        // Then every table was copied and checked, and a second migration is refused
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("hub_videos\t5") && migrated.stdout.contains("status_records\t2") && migrated.stdout.contains("status_zone_deletions\t1"), "\(migrated.stdout)")
        #expect(again.status == 1 && again.stderr.contains("already holds channels or users"))

        // And the hub answers the same seqs and continues the counter
        let postgres = try await PostgresServerDatabase.forTests(url: PostgresDatabaseURL(parsing: url), poolSize: 2)
        let moved = PostgresHubRepository(database: postgres)
        #expect(try await moved.videos(matching: HubVideoSelection()).videos == sqliteVideos)
        _ = try await moved.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [HubTestSupport.video(9, channel: channel)]))
        #expect(try await moved.videos(matching: HubVideoSelection(afterSeq: sqliteVideos.last?.seq ?? 0)).videos.map(\.seq) == [(sqliteVideos.last?.seq ?? 0) + 1])

        // And the device carries on: same token, its sync token and change tag still valid, no full resync
        let markSync = MarkSyncService(repository: PostgresMarkSyncRepository(database: postgres))
        let again2 = try await markSync.authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        #expect(again2.user == caller.user)
        let nothingNew = try await markSync.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: before.syncToken)]), caller: again2)
        guard case .success(let unchanged) = nothingNew.zones.first else { Issue.record("the old sync token was refused: \(nothingNew)"); return }
        #expect(unchanged.records.isEmpty)
        let updated = try await markSync.modifyRecords(
            MarkSyncRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "skipped", tag: tag))], zoneID: zoneID), bodyBytes: 0, caller: again2)
        #expect(updated.records.first?.record.flatMap(WatchedRecord.init)?.status == "skipped")
        let next = try await markSync.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: before.syncToken)]), caller: again2)
        guard case .success(let changes) = next.zones.first else { Issue.record("no changes"); return }
        #expect(changes.records.compactMap(\.recordName) == ["v1"])
        let databaseNext = try await markSync.databaseChanges(MarkSyncDatabaseChangesRequest(syncToken: database.syncToken), caller: again2)
        #expect(databaseNext.zones.map(\.zoneID.zoneName) == [WatchedRecord.zoneName])
        #expect(try await markSync.addUser(name: "gus").isEmpty == false)
    }

    @Test(.timeLimit(.minutes(1))) func aKilledInstancesLeasedChannelsAreTakenOverAfterTheLease() async throws {
        // Given 30 registered channels and a loopback feed server that records requests per
        // instance and channel, leaving instance a's requests unanswered (a round in progress)
        let url = try PostgresTestCluster.database()
        let channels = (0..<30).map { DemoCatalog.channelID(500 + $0) }
        _ = try await PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: PostgresDatabaseURL(parsing: url), poolSize: 1))
            .register(channelIDs: channels)
        let (requests, sink) = AsyncStream.makeStream(of: (instance: String, channel: String, at: ContinuousClock.Instant).self)
        let router = Router()
        router.get("/feeds/:instance/:channelId") { _, context -> Response in
            let instance = try context.parameters.require("instance")
            sink.yield((instance, try context.parameters.require("channelId"), .now))
            if instance == "a" { try await Task.sleep(for: .seconds(120)) }
            // An empty feed, not 404: every channel failing would be a whole-source outage, probed
            // one feed at a time instead of fetched.
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title></feed>")))
        }
        let (feeds, feedURL) = await BackgroundService.serve(router, label: "lease-takeover-feeds")
        defer { feeds.stop() }
        let pollSeconds = 4.0
        func server(_ instance: String) throws -> ServerProcess {
            try ServerProcess(arguments: [
                "serve", "--port", "0", "--database", url, "--poll-interval", String(pollSeconds),
                "--feed-url-template", "\(feedURL)/feeds/\(instance)/{channelId}",
            ])
        }

        // When instance a has leased its first channels and is fetching them, b starts polling
        // too, and a is killed with SIGKILL mid-round
        let first = try server("a")
        defer { first.kill() }
        var firstRequest = requests.makeAsyncIterator()
        let claimed = try #require(await firstRequest.next())
        #expect(claimed.instance == "a")
        let second = try server("b")
        defer { second.kill() }
        try await second.listening(within: .seconds(30))
        first.send(SIGKILL)
        _ = try await first.exit(within: .seconds(10))

        // Then b fetches every channel, and no channel is fetched twice within a lease (0.9 of
        // the poll interval, taken just before the request): the channels a asked for are
        // fetched by b only once a's leases ran out, the others at once and then each round
        let lease = Duration.milliseconds(Int64(pollSeconds * PostgresFeedLeases.leaseFraction * 1000))
        let fetches = try await withDeadline(.seconds(30), "b did not take over every channel") {
            var fetches: [String: [(instance: String, at: ContinuousClock.Instant)]] = [claimed.channel: [(claimed.instance, claimed.at)]]
            var byB: Set<String> = []
            for await request in requests {
                fetches[request.channel, default: []].append((request.instance, request.at))
                if request.instance == "b" { byB.insert(request.channel) }
                if byB.count == channels.count { return fetches }
            }
            return fetches
        }
        #expect(Set(fetches.keys) == Set(channels))
        #expect(channels.allSatisfy { fetches[$0]?.last?.instance == "b" })
        for (channel, times) in fetches {
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(later.at - earlier.at >= lease - .seconds(1), "\(channel): \(earlier.instance) then \(later.instance) after \(later.at - earlier.at)")
            }
        }
    }

    @Test(.timeLimit(.minutes(2))) func twoInstancesSplitARoundAndFetchEachChannelOnce() async throws {
        // Given 400 registered channels and a loopback feed server that records requests per
        // instance, holding its answers until both instances have asked for a feed
        let url = try PostgresTestCluster.database()
        let channels = (0..<400).map { DemoCatalog.channelID(2_000 + $0) }
        let database = try await PostgresServerDatabase.forTests(url: PostgresDatabaseURL(parsing: url), poolSize: 1)
        _ = try await PostgresHubRepository(database: database).register(channelIDs: channels)
        let (log, sink) = AsyncStream.makeStream(of: (instance: String, channel: String).self)
        let gate = InstanceGate(opensOnceAllOf: ["a", "b"])
        defer { Task { await gate.open() } }
        let router = Router()
        router.get("/feeds/:instance/:channelId") { _, context -> Response in
            let instance = try context.parameters.require("instance")
            sink.yield((instance, try context.parameters.require("channelId")))
            await gate.pass(instance)
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title></feed>")))
        }
        let (feeds, feedURL) = await BackgroundService.serve(router, label: "shared-round-feeds")
        defer { feeds.stop() }

        // When two instances poll them (a round spreads its fetches over 0.8 of the interval, 32 s,
        // and the test ends when every channel was fetched, before the next round)
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.kill() } }
        for instance in ["a", "b"] {
            servers.append(try ServerProcess(arguments: [
                "serve", "--port", "0", "--database", url, "--poll-interval", "40",
                "--feed-url-template", "\(feedURL)/feeds/\(instance)/{channelId}",
            ]))
        }
        let requests = try await withDeadline(.seconds(90), "the channels were not all fetched") {
            var requests: [(instance: String, channel: String)] = []
            var fetched: Set<String> = []
            for await request in log {
                requests.append(request)
                fetched.insert(request.channel)
                if fetched.count == channels.count { break }
            }
            return requests
        }

        // Then each instance fetched a good share, no channel was fetched twice, and each
        // instance fetched exactly the channels it holds the lease of
        let byInstance = Dictionary(grouping: requests, by: \.instance).mapValues { $0.map(\.channel) }
        #expect(requests.count == channels.count)
        #expect(Set(requests.map(\.channel)) == Set(channels))
        for instance in ["a", "b"] {
            #expect(byInstance[instance, default: []].count >= channels.count / 5, "\(instance) fetched \(byInstance[instance, default: []].count)")
        }
        let leases = try await database.query("SELECT holder, array_agg(channel_id) FROM hub_feed_leases GROUP BY holder")
            .map { try $0.decode((String, [String]).self).1 }
        #expect(Set(leases.map(Set.init)) == Set(byInstance.values.map(Set.init)))
    }

    @Test(.timeLimit(.minutes(1))) func aChannelFetchedByOneInstanceIsNotFetchedAgainWhenRegisteredAtAnother() async throws {
        // Given two instances on one database (polling far off), and a loopback feed server that
        // records each GET by instance and channel
        let url = try PostgresTestCluster.database()
        let database = try await PostgresServerDatabase.forTests(url: PostgresDatabaseURL(parsing: url), poolSize: 1)
        let (log, sink) = AsyncStream.makeStream(of: (instance: String, channel: String).self)
        let router = Router()
        router.get("/feeds/:instance/:channelId") { _, context -> Response in
            sink.yield((try context.parameters.require("instance"), try context.parameters.require("channelId")))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title></feed>")))
        }
        let (feeds, feedURL) = await BackgroundService.serve(router, label: "fetched-once-feeds")
        defer { feeds.stop() }
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.kill() } }
        var baseURLs: [String: String] = [:]
        for instance in ["a", "b"] {
            let server = try ServerProcess(arguments: [
                "serve", "--port", "0", "--database", url, "--poll-interval", "600", "--register-limit", "0",
                "--feed-url-template", "\(feedURL)/feeds/\(instance)/{channelId}",
            ])
            servers.append(server)
            baseURLs[instance] = "http://127.0.0.1:\(try await server.listening(within: .seconds(30)))"
        }
        let channels = (0..<10).map { DemoCatalog.channelID(3_000 + $0) }
        let newChannel = DemoCatalog.channelID(3_100)
        var requests = log.makeAsyncIterator()

        // When a client registers 10 channels at instance a, which fetches each of them
        let atA = try await Self.post(try #require(baseURLs["a"]) + HubAPI.registerPath, HubRegisterRequest(channelIDs: channels))
        #expect(atA.status == .ok)
        var seen: [(instance: String, channel: String)] = []
        while Set(seen.filter { $0.instance == "a" }.map(\.channel)) != Set(channels), let request = await requests.next() { seen.append(request) }
        try await withDeadline(.seconds(30), "a did not record its fetches") {
            while try await database.query("SELECT count(*) FROM hub_channels WHERE last_fetch_millis IS NOT NULL").map({ try $0.decode(Int.self) }).first != channels.count {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        // and another device registers them, and one new channel, at instance b
        let atB = try await Self.post(try #require(baseURLs["b"]) + HubAPI.registerPath, HubRegisterRequest(channelIDs: channels + [newChannel]))
        while !seen.contains(where: { $0 == ("b", newChannel) }), let request = await requests.next() { seen.append(request) }

        // Then b fetches the new channel and says only it is pending, and no channel was fetched
        // twice but by a polling round (one that began on a loaded machine only after a's
        // registration fetches the first channel it leases at once: that is polling, which the
        // instances share through the leases, not a fetch for the registration)
        #expect(try JSONDecoder().decode(HubRegisterResponse.self, from: atB.body).pendingChannels == 1)
        let polled = Set(try await database.query("SELECT channel_id FROM hub_feed_leases").map { try $0.decode(String.self) })
        let fetches = Dictionary(grouping: seen, by: \.channel)
        for channel in channels where !polled.contains(channel) {
            #expect(fetches[channel]?.map(\.instance) == ["a"], "\(channel): \(fetches[channel] ?? [])")
        }
        #expect(fetches[newChannel]?.map(\.instance) == ["b"], "\(fetches[newChannel] ?? [])")
    }

    @Test(.timeLimit(.minutes(1))) func webSubCallbacksAreAcceptedByAnyInstance() async throws {
        // Given two servers with WebSub on, on one database, and a loopback hub
        let hub = LoopbackWebSubHub()
        let (hubService, hubURL) = await BackgroundService.serve(hub.router, label: "websub-hub")
        defer { hubService.stop() }
        let url = try PostgresTestCluster.database()
        func server() throws -> ServerProcess {
            try ServerProcess(arguments: [
                "serve", "--port", "0", "--poll-interval", "0", "--database", url, "--database-pool", "2",
                "--public-url", WebSubTests.publicURL, "--websub-hub", hubURL + "/subscribe",
            ])
        }
        let first = try server()
        defer { first.kill() }
        let second = try server()
        defer { second.kill() }
        let a = "http://127.0.0.1:\(try await first.listening(within: .seconds(30)))"
        let b = "http://127.0.0.1:\(try await second.listening(within: .seconds(30)))"

        // When a client registers the channel at A, and the hub verifies the subscription it was asked for at B
        #expect(try await Self.post(a + HubAPI.registerPath, HubRegisterRequest(channelIDs: [WebSubTests.channel])).status == .ok)
        var requests = hub.requests.makeAsyncIterator()
        let request = try #require(await requests.next())
        let verified = try await ServerPushOptionsTests.call(b + LoopbackWebSubHub.verificationURI(request, challenge: "at-b", leaseSeconds: 3600))

        // Then B echoes the challenge: the pending request A recorded is in the database
        #expect(verified.status == 200 && verified.body == "at-b")

        // When the hub delivers a signed upload at B, and another one signed with a wrong secret
        let push = try WebSubTests.fixture("gearplug_push_notification_real_2017.xml")
        let callback = LoopbackWebSubHub.path(of: request.callback)
        let signed = try await ServerPushOptionsTests.call(b + callback, body: push, signature: LoopbackWebSubHub.signature(push, secret: request.secret))
        let other = try WebSubTests.fixture("google_docs_push_notification_example.xml", video: "AAAAAAAAAAA")
        let forged = try await ServerPushOptionsTests.call(b + callback, body: other, signature: LoopbackWebSubHub.signature(other, secret: "not-the-secret"))

        // Then B checked the signature with the secret A sent the hub: the signed upload is served by both, the forged one by neither
        #expect(signed.status == 204 && forged.status == 204)
        for base in [a, b] {
            let page = try JSONDecoder().decode(HubVideoPage.self, from: try await Self.post(base + HubAPI.videoQueryPath, HubVideoQuery(afterSeq: 0)).body)
            #expect(page.videos.map(\.videoID) == [WebSubTests.pushedVideo], "\(base)")
        }

        // And the subscription was requested once, not by each instance
        #expect(hub.all.count == 1)
    }

    @Test func migrateCopiesWebSubSubscriptionsAndEnrichmentState() async throws {
        // Given an SQLite hub with a live WebSub subscription, a pending one, lookups and units spent today
        let directory = TemporaryDirectory("metube-migrate-push")
        defer { directory.remove() }
        let path = directory.path("hub.sqlite")
        let database = try ServerDatabase(path: path)
        let hub = try SQLiteHubRepository(database: database)
        let (live, pending) = (DemoCatalog.channelID(5), DemoCatalog.channelID(6))
        _ = try await hub.register(channelIDs: [live, pending])
        _ = try await hub.ingest(FeedIngestion(channelID: live, channelTitle: nil, videos: (0..<3).map { HubTestSupport.video($0, channel: live) }))
        let subscriptions = SQLiteWebSubRepository(database: database)
        let now = WebSubService.millisecondsNow()
        _ = try await subscriptions.recordRequested(channelID: live, secret: WebSubSignature.newSecret(), now: now, retryAt: now + 3_600_000)
        #expect(try await subscriptions.confirm(channelID: live, requestedSince: now, leaseSeconds: 864_000, now: now, renewAt: now + 691_200_000))
        _ = try await subscriptions.recordRequested(channelID: pending, secret: WebSubSignature.newSecret(), now: now, retryAt: now + 3_600_000)
        let enrichment = SQLiteEnrichmentRepository(database: database)
        let checked = [DemoCatalog.videoID(0), DemoCatalog.videoID(1)]
        _ = try await enrichment.recordVideoLookup(checked: checked, durations: [DemoCatalog.videoID(0): 61], now: now)
        try await enrichment.recordChannelLookup(checked: [live], details: [live: YouTubeChannelDetails(title: "Live", thumbnailURL: "https://yt3.example/l.jpg")], now: now)
        let day = UTCDay.string(Date())
        #expect(try await enrichment.spend(units: 7, day: day, dailyUnits: 100, forgetBefore: "2000-01-01"))
        try await enrichment.markQuotaExceeded(day: "2099-12-31")

        // When it is migrated into PostgreSQL
        let url = try PostgresTestCluster.database()
        let migrated = try runProcess(ProductBinary.url("metube-server"), ["migrate", "--from", path, "--to", url])

        // Then the new tables were copied and counted
        #expect(migrated.status == 0, "\(migrated.stderr)")
        for line in ["websub_subscriptions\t2", "youtube_video_checks\t2", "youtube_channel_checks\t1", "youtube_quota\t2"] {
            #expect(migrated.stdout.contains(line), "\(line): \(migrated.stdout)")
        }

        // And PostgreSQL holds the same subscriptions (secrets, pending request, lease), lookups and budget
        let store = try await PushStore.postgres(url: try PostgresDatabaseURL(parsing: url))
        for channel in [live, pending] {
            let moved = try await store.subscriptions.subscription(channelID: channel)
            #expect(moved == (try await subscriptions.subscription(channelID: channel)), "\(channel)")
        }
        #expect(try await store.subscriptions.liveChannelIDs(now: now) == [live])
        #expect(try await store.subscriptions.confirm(channelID: pending, requestedSince: now, leaseSeconds: 3600, now: now, renewAt: now + 2_880_000))
        #expect(try await store.subscriptions.dueSubscriptions(now: now + 1, limit: 10).isEmpty)
        #expect(try await store.enrichment.videosToEnrich(recheckBefore: now - 1, maxAttempts: 3, limit: 10) == [DemoCatalog.videoID(2)])
        #expect(try await store.enrichment.channelsToEnrich(retryBefore: now - 1, refreshBefore: now - 1, limit: 10) == [pending])
        let usage = try await store.enrichment.quotaUsage(day: day)
        #expect(usage.used == 7 && !usage.exceeded)
        #expect(try await store.enrichment.quotaUsage(day: "2099-12-31").exceeded)
        #expect(try await store.hub.videos(matching: HubVideoSelection()).videos.first { $0.videoID == DemoCatalog.videoID(0) }?.durationSeconds == 61)
    }

    private static func post(_ url: String, _ body: (some Encodable)?) async throws -> (status: HTTPResponseStatus, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = body == nil ? .GET : .POST
        if let body { request.body = .bytes(try JSONEncoder().encode(body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status, Data(bytes.readableBytesView))
    }
}

/// Holds feed answers until every instance named has asked for a feed, so that all of them start
/// the round before it ends.
private actor InstanceGate {
    private let instances: Set<String>
    private var asked: Set<String> = []
    private var isOpen = false
    private var held: [CheckedContinuation<Void, Never>] = []

    init(opensOnceAllOf instances: Set<String>) { self.instances = instances }

    /// Returns once every instance has asked (at once if all have).
    func pass(_ instance: String) async {
        asked.insert(instance)
        if asked.isSuperset(of: instances) { open() }
        guard !isOpen else { return }
        await withCheckedContinuation { held.append($0) }
    }

    /// Lets every held answer go, and the ones to come.
    func open() {
        isOpen = true
        held.forEach { $0.resume() }
        held = []
    }
}
