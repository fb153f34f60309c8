import Foundation
import Glibc
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeServer
import NIOCore
import Testing
import TestSupport

@Suite struct MarkSyncCrashTests {
    @Test func everyAnsweredModifySurvivesSIGKILLOfTheServer() async throws {
        // Given the real metube-server on a database file, with a user and their zone
        let directory = TemporaryDirectory("metube-status-crash")
        defer { directory.remove() }
        let path = directory.path("server.sqlite")
        let token = try await MarkSyncService(repository: SQLiteMarkSyncRepository(path: path)).addUser(name: "erin")
        let server = try ServerProcess(arguments: [
            "serve", "--host", "127.0.0.1", "--port", "0", "--database", path, "--poll-interval", "0", "--status-rate", "0",
        ])
        defer { server.kill() }
        let port = try await server.listening(within: .seconds(60))
        let base = "/database/1/\(MarkSyncConfiguration.defaultContainer)/production/private/"
        let headers: HTTPFields = [.authorization: "Bearer \(token)"]
        let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        let zone = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.post(base + "zones/modify?ckAPIToken=metube", headers: headers, body: ByteBuffer(bytes: JSONEncoder().encode(
                MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]))))
        }
        #expect(zone.status == .ok)

        // When 8 clients write records concurrently (their writes committed in groups) and the
        // server is killed with SIGKILL once 40 writes were answered, with more in flight
        let (answers, answerSink) = AsyncStream.makeStream(of: Void.self)
        let writers = Task {
            let written = await withTaskGroup(of: Set<String>.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        let client = TestClient(host: "127.0.0.1", port: port)
                        client.connect()
                        var answered: Set<String> = []
                        for round in 0..<10_000 {
                            let names = (0..<20).map { "w\(writer)-\(round)-\($0)" }
                            let request = MarkSyncRecordsModifyRequest(operations: names.map { .init(.create, record: watched($0)) }, zoneID: zoneID)
                            guard let body = try? JSONEncoder().encode(request),
                                  let response = try? await client.post(base + "records/modify?ckAPIToken=metube", headers: headers, body: ByteBuffer(bytes: body)),
                                  response.status == .ok else { break }
                            answered.formUnion(names)
                            answerSink.yield()
                        }
                        try? await client.shutdown()
                        return answered
                    }
                }
                return await group.reduce(into: Set<String>()) { $0.formUnion($1) }
            }
            answerSink.finish()
            return written
        }
        var count = 0
        for await _ in answers {
            count += 1
            if count == 40 { server.send(SIGKILL) }
        }
        let written = await writers.value
        _ = try await server.exit(within: .seconds(15))

        // Then the file, opened again, holds every record whose write was answered
        #expect(written.count >= 40 * 20)
        let repository = try SQLiteMarkSyncRepository(path: path)
        let key = MarkSyncZoneKey(database: MarkSyncDatabaseKey(userID: 1, container: MarkSyncConfiguration.defaultContainer, environment: "production"), zoneName: zoneID.zoneName)
        let stored = Set(try await repository.zone(key, records: .named(Array(written)))?.records.map(\.name) ?? [])
        #expect(stored == written)
    }
}
