import AsyncHTTPClient
import Foundation
import Hummingbird
import MeTubeAPI
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import Testing
@testable import MeTubeServer

/// Clients that hold connections without using them (issue 13, 13.15): half-sent requests,
/// drips and silence are cut off, so they cannot exhaust the server.
@Suite struct ConnectionLimitTests {
    /// A running full server with tight limits.
    struct RunningServer {
        let port: Int
        let service: BackgroundService

        static func start(_ limits: ConnectionLimits) async throws -> RunningServer {
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            var configuration = ServerConfiguration(pollInterval: nil, onListening: { _, port in continuation.yield(port) })
            configuration.connectionLimits = limits
            configuration.logger.logLevel = .critical
            let app = try await buildApplication(configuration: configuration)
            let service = BackgroundService(app, logger: configuration.logger)
            guard let port = await ports.first(where: { _ in true }) else { throw ServerError.notFound }
            return RunningServer(port: port, service: service)
        }

        func stop() { service.stop() }
    }

    /// A TCP connection that sends raw bytes and notices when the server closes it.
    struct RawConnection {
        let channel: any Channel
        /// All the server sent, once it has closed the connection.
        let reply: EventLoopFuture<String>

        /// A connection to the server on `port` from the loopback address `source`.
        static func open(port: Int, from source: String = "127.0.0.1") async throws -> RawConnection {
            let bootstrap = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(to: SocketAddress(ipAddress: source, port: 0))
            let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
            let reply = channel.eventLoop.makePromise(of: String.self)
            do {
                try await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(ReplyCollector(reply: reply))
                }.get()
            } catch {
                reply.fail(error)
                throw error
            }
            return RawConnection(channel: channel, reply: reply.futureResult)
        }

        func send(_ text: String) async throws {
            try await channel.writeAndFlush(ByteBuffer(string: text)).get()
        }

        /// Whether the server closed the connection within `limit`.
        func isClosed(within limit: Duration) async -> Bool {
            let channel = channel
            return await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await channel.closeFuture.get()) != nil }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return false
                }
                defer { group.cancelAll() }
                return await group.next() ?? false
            }
        }
    }

    static let halfSentRequest = "POST /api/videos/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"afterSeq\":"

    @Test func aHalfSentRequestIsCutOffOnceItsGraceHasPassed() async throws {
        // Given a server whose requests must arrive within 1 s, then at 1 KiB/s
        let server = try await RunningServer.start(ConnectionLimits(idleTimeout: .seconds(60), requestGrace: .seconds(1)))
        defer { server.stop() }

        // When a client sends half a request and stops, and another only half a request line
        let body = try await RawConnection.open(port: server.port)
        try await body.send(Self.halfSentRequest)
        let line = try await RawConnection.open(port: server.port)
        try await line.send("GET /hea")

        // Then the server closes both
        #expect(await body.isClosed(within: .seconds(15)))
        #expect(await line.isClosed(within: .seconds(15)))
    }

    @Test func aDrippedRequestIsCutOff() async throws {
        // Given a server whose requests must arrive at 1 KiB/s after 1 s
        let server = try await RunningServer.start(ConnectionLimits(idleTimeout: .seconds(60), requestGrace: .seconds(1)))
        defer { server.stop() }

        // When a client sends a request line, then drips a header a few bytes at a time
        let connection = try await RawConnection.open(port: server.port)
        try await connection.send("POST /api/videos/query HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let drip = Task {
            for _ in 0..<300 {
                try await connection.send("X-Drip: 1\r\n")
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { drip.cancel() }

        // Then the server closes it though bytes keep coming
        #expect(await connection.isClosed(within: .seconds(10)))
    }

    @Test func anIdleConnectionIsClosed() async throws {
        // Given a server that closes connections idle for 1 s
        let server = try await RunningServer.start(ConnectionLimits(idleTimeout: .seconds(1), requestGrace: .seconds(1)))
        defer { server.stop() }

        // When a client connects and sends nothing
        let connection = try await RawConnection.open(port: server.port)

        // Then the server closes it
        #expect(await connection.isClosed(within: .seconds(10)))
    }

    @Test func healthAnswersWhileHalfSentConnectionsFillTheCap() async throws {
        // Given a server capped at 20 connections, and 100 clients of another address (which may
        // hold them all) each holding a half-sent request
        let server = try await RunningServer.start(ConnectionLimits(
            maxConnections: 20, idleTimeout: .seconds(2), requestGrace: .seconds(1)))
        defer { server.stop() }
        var holders: [RawConnection] = []
        for _ in 0..<100 {
            let connection = try await RawConnection.open(port: server.port, from: "127.0.0.2")
            try? await connection.send(Self.halfSentRequest)
            holders.append(connection)
        }

        // When a real client asks for /health
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)\(HubAPI.healthPath)")
        request.method = .GET
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))

        // Then it is answered, the holders having been cut off
        #expect(response.status == .ok)
        _ = holders
    }

    /// Whether `/health` answers a new client (on a connection of its own) within `limit`.
    static func healthAnswers(port: Int, within limit: Int64) async -> Bool {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(HubAPI.healthPath)")
        request.headers.add(name: "Connection", value: "close")
        return (try? await HTTPClient.shared.execute(request, timeout: .seconds(limit)).status) == .ok
    }

    @Test func aSilentNewConnectionIsClosedAfterTheHeaderTimeout() async throws {
        // Given a server that gives a new connection 1 s to send a request head (idle ones 60 s)
        let server = try await RunningServer.start(ConnectionLimits(idleTimeout: .seconds(60), headerTimeout: .seconds(1), requestGrace: .seconds(30)))
        defer { server.stop() }

        // When a client connects and sends nothing, and another sends half a request line
        let silent = try await RawConnection.open(port: server.port)
        let partial = try await RawConnection.open(port: server.port)
        try await partial.send("GET /hea")

        // Then the server closes both long before the idle timeout or the request grace
        #expect(await silent.isClosed(within: .seconds(10)))
        #expect(await partial.isClosed(within: .seconds(10)))
    }

    @Test func silentConnectionsBeyondTheIdleCapAreSetAsideNotClosed() async throws {
        // Given a server capped at 20 connections that counts at most 10 idle ones and waits 60 s
        // for a request
        let server = try await RunningServer.start(ConnectionLimits(maxConnections: 20, headerTimeout: .seconds(60), maxIdleConnections: 10))
        defer { server.stop() }

        // When 30 clients of one address connect and stay silent
        var connections: [RawConnection] = []
        for _ in 0..<30 { connections.append(try await RawConnection.open(port: server.port, from: "127.0.0.2")) }

        // Then a new client is answered, which needs at least 11 of them out of the cap, and
        // all 30 are still open: set aside until their header timeout, not closed to be reopened
        #expect(await Self.healthAnswers(port: server.port, within: 10))
        #expect(connections.allSatisfy { $0.channel.isActive })
    }

    @Test func aSilentFloodFromManyAddressesIsHeldWithoutBeingReopened() async throws {
        // Given a server capped at 100 connections (so 50 idle ones) that waits 60 s for a
        // request, and 300 silent connections from six addresses, 50 each (within each address's
        // cap), reopened as the server closes them
        let server = try await RunningServer.start(ConnectionLimits(maxConnections: 100, headerTimeout: .seconds(60)))
        defer { server.stop() }
        let opened = OpenCount()
        let (opens, sink) = AsyncStream.makeStream(of: Void.self)
        let sources = (2...7).map { "127.0.0.\($0)" }
        let flood = Self.silentFlood(port: server.port, connections: 300, from: sources) {
            opened.add()
            sink.yield()
        }
        defer { flood.cancel() }
        try await Self.waitFor(300, of: opens, within: .seconds(30), "fewer than 300 silent connections were accepted")

        // When new clients ask for /health
        for _ in 0..<20 { #expect(await Self.healthAnswers(port: server.port, within: 10)) }

        // Then each is answered, and the server closed none of the flood's connections (the 250
        // past the idle cap are set aside), so none was reopened
        #expect(opened.value == 300)
        flood.cancel()
    }

    @Test func aSetAsideConnectionIsAnsweredWhenItSendsItsRequest() async throws {
        // Given a server capped at 2 connections (so 1 idle one) that waits 60 s for a request,
        // and two silent connections
        let server = try await RunningServer.start(ConnectionLimits(maxConnections: 2, headerTimeout: .seconds(60)))
        defer { server.stop() }
        let first = try await RawConnection.open(port: server.port, from: "127.0.0.2")
        let second = try await RawConnection.open(port: server.port, from: "127.0.0.3")

        // When a new client is answered (so the first was taken out of the cap to make room) and
        // the first then sends its request
        #expect(await Self.healthAnswers(port: server.port, within: 10))
        try await first.send("GET \(HubAPI.healthPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")

        // Then it is answered
        let reply = try await withDeadline(.seconds(10), "the set-aside connection got no answer") { try await first.reply.get() }
        #expect(reply.hasPrefix("HTTP/1.1 200"))
        _ = second
    }

    @Test func silentConnectionsPastTheSetAsideBoundAreClosed() async throws {
        // Given a server capped at 10 connections (5 idle ones, at most 40 kept unread or set
        // aside) that waits 60 s for a request
        let server = try await RunningServer.start(ConnectionLimits(maxConnections: 10, headerTimeout: .seconds(60)))
        defer { server.stop() }

        // When six addresses open 10 silent connections each (each within its address's cap)
        let (closes, sink) = AsyncStream.makeStream(of: Void.self)
        var connections: [RawConnection] = []
        for index in 0..<60 {
            let connection = try await RawConnection.open(port: server.port, from: "127.0.0.\(2 + index % 6)")
            connection.channel.closeFuture.whenComplete { _ in sink.yield() }
            connections.append(connection)
        }

        // Then the 15 beyond the idle and set-aside bounds are closed, and a new client is answered
        try await Self.waitFor(15, of: closes, within: .seconds(30), "fewer than 15 silent connections were closed")
        #expect(await Self.healthAnswers(port: server.port, within: 10))
    }

    @Test func usedConnectionsBeyondTheIdleCapAreClosed() async throws {
        // Given a server that counts at most 2 idle connections
        let server = try await RunningServer.start(ConnectionLimits(maxIdleConnections: 2))
        defer { server.stop() }

        // When 4 clients of one address each get an answer and keep their connection
        let (closes, sink) = AsyncStream.makeStream(of: Void.self)
        var connections: [RawConnection] = []
        for _ in 0..<4 {
            let connection = try await RawConnection.open(port: server.port, from: "127.0.0.2")
            connection.channel.closeFuture.whenComplete { _ in sink.yield() }
            try await connection.send("GET \(HubAPI.healthPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            connections.append(connection)
        }

        // Then 2 of them are closed: only silent ones are set aside
        try await Self.waitFor(2, of: closes, within: .seconds(10), "fewer than 2 used idle connections were closed")
        _ = connections
    }

    /// Waits for `count` events of `events`; throws after `limit`.
    static func waitFor(_ count: Int, of events: AsyncStream<Void>, within limit: Duration, _ message: String) async throws {
        try await withDeadline(limit, message) {
            var seen = 0
            for await _ in events {
                seen += 1
                if seen == count { return }
            }
        }
    }

    @Test func aSilentFloodPastTheConnectionCapLeavesRoomForNewClients() async throws {
        // Given a server capped at 200 connections (so at most 100 idle ones), and 300 silent
        // connections from three other addresses, reopened as the server closes them
        let server = try await RunningServer.start(ConnectionLimits(maxConnections: 200, headerTimeout: .seconds(60)))
        defer { server.stop() }
        let flood = Self.silentFlood(port: server.port, connections: 300, from: ["127.0.0.2", "127.0.0.3", "127.0.0.4"])
        defer { flood.cancel() }

        // When new clients ask for /health, Then each is answered
        for _ in 0..<20 { #expect(await Self.healthAnswers(port: server.port, within: 10)) }
        flood.cancel()
    }

    /// `connections` silent connections spread over the loopback addresses `sources`, each opened
    /// again as soon as the server closes it, until the task is cancelled; `onOpen` is called as
    /// each opens.
    static func silentFlood(
        port: Int, connections: Int, from sources: [String], onOpen: @escaping @Sendable () -> Void = {}
    ) -> Task<Void, Never> {
        Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<connections {
                    group.addTask {
                        while !Task.isCancelled {
                            guard let connection = try? await RawConnection.open(port: port, from: sources[index % sources.count]) else {
                                try? await Task.sleep(for: .milliseconds(10))
                                continue
                            }
                            onOpen()
                            await withTaskCancellationHandler {
                                try? await connection.channel.closeFuture.get()
                            } onCancel: {
                                connection.channel.close(promise: nil)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Collects what the server sends on a ``ConnectionLimitTests/RawConnection`` until it closes it.
private final class ReplyCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let reply: EventLoopPromise<String>
    private var received = ""

    init(reply: EventLoopPromise<String>) {
        self.reply = reply
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += String(buffer: unwrapInboundIn(data))
    }

    /// A connection the server closed before this handler was added gets no `channelInactive`:
    /// its (empty) reply is complete at once, so the promise is never dropped unfulfilled.
    func handlerAdded(context: ChannelHandlerContext) {
        if !context.channel.isActive { reply.succeed(received) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        reply.succeed(received)
        context.fireChannelInactive()
    }
}

/// How many connections a test's flood has opened.
private final class OpenCount: Sendable {
    private let count = Mutex(0)

    /// One more was opened.
    func add() { count.withLock { $0 += 1 } }

    /// The connections opened so far.
    var value: Int { count.withLock { $0 } }
}
