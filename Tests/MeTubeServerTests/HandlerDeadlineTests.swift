import AsyncHTTPClient
import Foundation
import GRDB
import MeTubeAPI
import NIOCore
import TestSupport
import Testing
@testable import MeTubeServer

/// A handler that stalls (here: on the SQLite write lock, held by another connection) is the
/// server's time, not the client's (issue 23, item 2): the client gets an answer, a 503 with a
/// reason once the handler deadline has passed, never a silently closed connection.
@Suite struct HandlerDeadlineTests {
    /// A full server over an SQLite file whose write lock another connection holds.
    struct StalledServer {
        let port: Int
        let service: BackgroundService
        let directory: TemporaryDirectory
        let lockHolder: DatabaseQueue

        static func start(_ limits: ConnectionLimits) async throws -> StalledServer {
            let directory = TemporaryDirectory()
            let path = directory.path("hub.sqlite")
            let database = try ServerDatabase(path: path)
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            var configuration = ServerConfiguration(pollInterval: nil, onListening: { _, port in continuation.yield(port) })
            configuration.connectionLimits = limits
            configuration.logger.logLevel = .critical
            let app = try await buildApplication(configuration: configuration, database: database)
            let service = BackgroundService(app, logger: configuration.logger)
            guard let port = await ports.first(where: { _ in true }) else { throw ServerError.notFound }
            var holding = Configuration()
            holding.allowsUnsafeTransactions = true
            let lockHolder = try DatabaseQueue(path: path, configuration: holding)
            try await lockHolder.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            return StalledServer(port: port, service: service, directory: directory, lockHolder: lockHolder)
        }

        func register() async throws -> HTTPClientResponse {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(HubAPI.registerPath)")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(HubRegisterRequest(channelIDs: [SyntheticLibrary.channelID(1)]))))
            return try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        }

        func stop() {
            try? lockHolder.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            service.stop()
            directory.remove()
        }
    }

    @Test func aHandlerPastItsDeadlineIsAnswered503WithAReason() async throws {
        // Given a server whose handlers must answer within 1 s, and a write that waits on the lock
        let server = try await StalledServer.start(ConnectionLimits(requestGrace: .seconds(1), handlerDeadline: .seconds(1)))
        defer { server.stop() }

        // When a client registers a channel
        let response = try await server.register()

        // Then it is told to come back later, with a reason
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers.first(name: "Retry-After") == "5")
        let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
        #expect(body.contains("could not answer within 1 s"), "\(body)")
    }

    @Test func theHandlersTimeIsNotChargedToTheClient() async throws {
        // Given a server whose requests must arrive within 1 s, and a write that waits on the lock
        // until SQLite gives up (5 s), well within the handler deadline
        let server = try await StalledServer.start(ConnectionLimits(requestGrace: .seconds(1), handlerDeadline: .seconds(60)))
        defer { server.stop() }

        // When a client registers a channel, Then it gets the storage failure as an answer (503:
        // the lock was not free in time), not an empty reply
        let response = try await server.register()
        #expect(response.status == .serviceUnavailable)
    }

}
