import AsyncHTTPClient
import Foundation
import MeTubeAPI
import MeTubeServer
import NIOCore
import Testing
import TestSupport

/// Issue 37, item 2: per-user quotas on zones, records and stored bytes, through a real
/// `metube-server` on each backend, set by `serve --quota-…` and changed by `users quota`.
@Suite struct MarkSyncQuotaTests {
    enum Backend: String, CaseIterable, Sendable { case sqlite, postgres }

    /// A running server on a fresh database of `backend`, with users alice and bob.
    struct Running: Sendable {
        let server: ServerProcess
        let database: String
        let port: Int
        let alice: String
        let bob: String

        /// Runs `metube-server ARGUMENTS --database …`.
        func admin(_ arguments: String...) throws -> ProcessOutcome {
            try runProcess(ProductBinary.url("metube-server"), arguments + ["--database", database])
        }

        /// POSTs `body` to the status `operation` as the user with `token`.
        func post(_ operation: String, _ body: some Encodable, token: String) async throws -> (status: Int, body: Data) {
            var request = HTTPClientRequest(url: url(operation, token: token))
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
            return try await send(request)
        }

        /// GETs the status `operation` (with `query` appended) as the user with `token`.
        func get(_ operation: String, query: String = "", token: String) async throws -> (status: Int, body: Data) {
            try await send(HTTPClientRequest(url: url(operation, token: token) + query))
        }

        private func url(_ operation: String, token: String) -> String {
            "http://127.0.0.1:\(port)/database/1/\(MarkSyncConfiguration.defaultContainer)/development/private/\(operation)"
                + "?ckAPIToken=\(MarkSyncConfiguration.defaultAPIToken)&ckWebAuthToken=\(token)"
        }

        private func send(_ request: HTTPClientRequest) async throws -> (status: Int, body: Data) {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            return (Int(response.status.code), Data(try await response.body.collect(upTo: 16 << 20).readableBytesView))
        }

        /// Creates the zones named as the user with `token`; one result per zone.
        func createZones(_ names: [String], token: String) async throws -> [MarkSyncZoneResult] {
            let answer = try await post("zones/modify", MarkSyncZonesModifyRequest(operations: names.map { .init(.create, zone: MarkSyncZoneID(zoneName: $0)) }), token: token)
            return try JSONDecoder().decode(MarkSyncZonesResponse.self, from: answer.body).zones
        }

        /// Sends `operations` (not atomic) to the watched-status zone as the user with `token`.
        func modify(_ operations: [MarkSyncRecordsModifyRequest.Operation], token: String) async throws -> [MarkSyncRecordResult] {
            let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
            let answer = try await post("records/modify", MarkSyncRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: false), token: token)
            return try JSONDecoder().decode(MarkSyncRecordsResponse.self, from: answer.body).records
        }

        /// The live records of the watched-status zone, by name, as the user with `token` fetches them.
        func recordNames(token: String) async throws -> [String] {
            let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
            let answer = try await post("changes/zone", MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]), token: token)
            guard case .success(let page)? = try JSONDecoder().decode(MarkSyncZoneChangesResponse.self, from: answer.body).zones.first else { return [] }
            return page.records.filter { $0.deleted != true }.compactMap(\.recordName).sorted()
        }

        /// The `users quota NAME` table: used and quota by what.
        func quota(_ name: String, _ changes: String...) throws -> [String: (used: String, quota: String)] {
            let outcome = try runProcess(ProductBinary.url("metube-server"), ["users", "quota", name] + changes + ["--database", database])
            guard outcome.status == 0 else { throw QuotaTestFailure("users quota failed (\(outcome.status)): \(outcome.stderr)") }
            var table: [String: (String, String)] = [:]
            for line in outcome.stdout.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: "\t").map(String.init)
                if columns.count == 3 { table[columns[0]] = (columns[1], columns[2]) }
            }
            return table
        }
    }

    /// Starts a server on a fresh `backend` database with `options`, after adding alice and bob.
    static func start(_ backend: Backend, _ options: [String], directory: TemporaryDirectory) async throws -> Running {
        let database = switch backend {
        case .sqlite: directory.path("hub.sqlite")
        case .postgres: try PostgresTestCluster.database()
        }
        func add(_ name: String) throws -> String {
            let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", name, "--database", database])
            guard added.status == 0 else { throw QuotaTestFailure("users add failed: \(added.stderr)") }
            return added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let (alice, bob) = (try add("alice"), try add("bob"))
        let server = try ServerProcess(arguments: [
            "serve", "--host", "127.0.0.1", "--port", "0", "--database", database, "--poll-interval", "0", "--status-rate", "0", "--register-limit", "0",
        ] + options)
        let port = try await server.listening(within: .seconds(60))
        return Running(server: server, database: database, port: port, alice: alice, bob: bob)
    }

    static func zoneName(_ result: MarkSyncZoneResult) -> String? {
        guard case .success(let zone) = result else { return nil }
        return zone.zoneID.zoneName
    }

    static func code(_ result: MarkSyncZoneResult) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error): error.serverErrorCode.rawValue
        }
    }

    static func code(_ result: MarkSyncRecordResult) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error): error.serverErrorCode.rawValue
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func zonesOverTheQuotaAreRefusedWhatFitIsKeptAndTheOperatorCanRaiseIt(backend: Backend) async throws {
        // Given a server whose users may create 2 zones
        let directory = TemporaryDirectory("metube-quota-zones")
        defer { directory.remove() }
        let running = try await Self.start(backend, ["--quota-zones", "2"], directory: directory)
        defer { running.server.kill() }

        // When alice creates three zones in one request, and bob two
        let alice = try await running.createZones(["A", "B", "C"], token: running.alice)
        let bob = try await running.createZones(["A", "B"], token: running.bob)

        // Then the third is refused with QUOTA_EXCEEDED in CloudKit's zone error shape, the first
        // two exist, and bob is not affected by alice's zones
        #expect(alice.map(Self.code) == ["ok", "ok", "QUOTA_EXCEEDED"])
        if case .failure(let error)? = alice.last {
            #expect(error.zoneID?.zoneName == "C" && error.reason.contains("2 zones"))
        }
        #expect(bob.map(Self.code) == ["ok", "ok"])
        let listed = try JSONDecoder().decode(MarkSyncZonesResponse.self, from: try await running.get("zones/list", token: running.alice).body)
        #expect(listed.zones.compactMap(Self.zoneName) == ["A", "B", MarkSyncZoneID.defaultZoneName])
        #expect(try running.quota("alice")["zones"]?.used == "2")

        // When the operator raises alice's quota to 3 on the running server
        let raised = try running.quota("alice", "--zones", "3")

        // Then the next create succeeds, and deleting a zone gives its place back
        #expect(raised["zones"]?.quota == "3")
        #expect(try await running.createZones(["C"], token: running.alice).map(Self.code) == ["ok"])
        #expect(try await running.createZones(["D"], token: running.alice).map(Self.code) == ["QUOTA_EXCEEDED"])
        let deleted = try await running.post("zones/modify", MarkSyncZonesModifyRequest(operations: [.init(.delete, zone: MarkSyncZoneID(zoneName: "A"))]), token: running.alice)
        #expect(deleted.status == 200)
        #expect(try await running.createZones(["D"], token: running.alice).map(Self.code) == ["ok"])
        #expect(try running.quota("alice", "--zones", "default")["zones"]?.quota == "default")
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func recordsOverTheQuotaAreRefusedWhatFitIsKeptAndDeletesFreeTheirPlace(backend: Backend) async throws {
        // Given a server whose users may hold 3 records, and alice and bob each with the zone
        let directory = TemporaryDirectory("metube-quota-records")
        defer { directory.remove() }
        let running = try await Self.start(backend, ["--quota-records", "3"], directory: directory)
        defer { running.server.kill() }
        for token in [running.alice, running.bob] {
            _ = try await running.createZones([WatchedRecord.zoneName], token: token)
        }

        // When alice writes five records in one request (and rewrites one of them), and bob three
        let first = try await running.modify((1...5).map { .init(.forceReplace, record: watched("v\($0)")) }, token: running.alice)
        let rewrite = try await running.modify([.init(.forceReplace, record: watched("v1", "skipped"))], token: running.alice)
        let bob = try await running.modify((1...3).map { .init(.forceReplace, record: watched("b\($0)")) }, token: running.bob)

        // Then the first three are stored and acknowledged, the other two answer QUOTA_EXCEEDED
        // per record, a rewrite of a stored record still fits, and bob is not affected
        #expect(first.map(Self.code) == ["ok", "ok", "ok", "QUOTA_EXCEEDED", "QUOTA_EXCEEDED"])
        #expect(first.last?.recordName == "v5")
        #expect(rewrite.map(Self.code) == ["ok"])
        #expect(bob.map(Self.code) == ["ok", "ok", "ok"])
        #expect(try await running.recordNames(token: running.alice) == ["v1", "v2", "v3"])
        #expect(try running.quota("alice")["records"]?.used == "3")

        // When alice deletes one and writes again, then the operator raises her quota
        let deleted = try await running.modify([.init(.forceDelete, record: watched("v2"))], token: running.alice)
        let afterDelete = try await running.modify([.init(.forceReplace, record: watched("v4")), .init(.forceReplace, record: watched("v5"))], token: running.alice)
        _ = try running.quota("alice", "--records", "10")
        let afterRaise = try await running.modify([.init(.forceReplace, record: watched("v5"))], token: running.alice)

        // Then the delete freed one place, and the raise lets the next write in at once
        #expect(deleted.map(Self.code) == ["ok"])
        #expect(afterDelete.map(Self.code) == ["ok", "QUOTA_EXCEEDED"])
        #expect(afterRaise.map(Self.code) == ["ok"])
        #expect(try await running.recordNames(token: running.alice) == ["v1", "v3", "v4", "v5"])
        #expect(try running.quota("alice")["records"].map { [$0.used, $0.quota] } == ["4", "10"])
    }

    @Test(.timeLimit(.minutes(2)), arguments: Backend.allCases)
    func bytesOverTheQuotaAreRefusedAndTheUsageMatchesWhatIsStored(backend: Backend) async throws {
        // Given a server whose users may store 4 KiB, and alice with the zone
        let directory = TemporaryDirectory("metube-quota-bytes")
        defer { directory.remove() }
        let running = try await Self.start(backend, ["--quota-bytes", "4KiB"], directory: directory)
        defer { running.server.kill() }
        _ = try await running.createZones([WatchedRecord.zoneName], token: running.alice)
        _ = try await running.createZones([WatchedRecord.zoneName], token: running.bob)

        // When alice writes ten records of about 1 KiB each
        let padding = String(repeating: "x", count: 900)
        let records = (0..<10).map { index in
            var record = watched("v\(index)")
            record.fields?["note"] = MarkSyncField(value: .string(padding), type: "STRING")
            return MarkSyncRecordsModifyRequest.Operation(.forceReplace, record: record)
        }
        let written = try await running.modify(records, token: running.alice)

        // Then what fits in 4 KiB is stored, the rest answers QUOTA_EXCEEDED, and bob can still write
        let codes = written.map(Self.code)
        let stored = codes.prefix { $0 == "ok" }.count
        #expect(stored == 3, "\(codes)")
        #expect(codes.dropFirst(stored).allSatisfy { $0 == "QUOTA_EXCEEDED" })
        #expect(try await running.recordNames(token: running.alice).count == stored)
        let used = Int(try running.quota("alice")["bytes"]?.used ?? "") ?? 0
        #expect(used > 3 * 900 && used <= 4096)
        #expect(try await running.modify([.init(.forceReplace, record: records[0].record)], token: running.bob).map(Self.code) == ["ok"])

        // When alice replaces her records with small ones, the bytes they held come back
        let shrunk = try await running.modify((0..<stored).map { .init(.forceReplace, record: watched("v\($0)")) }, token: running.alice)
        #expect(shrunk.allSatisfy { Self.code($0) == "ok" })
        #expect(try await running.modify([records[9]], token: running.alice).map(Self.code) == ["ok"])
    }
}

/// A step of a quota test that could not be taken.
struct QuotaTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
