import AsyncHTTPClient
import Foundation
import MeTubeAPI
import NIOCore
import NIOHTTP1
import NIOPosix
import TestSupport
import Testing
@testable import MeTubeServer

/// A household behind one address (a reverse proxy, carrier-grade NAT) is not locked out by one
/// of its devices (issue 37, 1): silent connections are reclaimed first, a request is never
/// refused for its address alone, and forwarded addresses count only from trusted proxies.
@Suite struct SharedAddressAdmissionTests {
    typealias RunningServer = ConnectionLimitTests.RunningServer
    typealias RawConnection = ConnectionLimitTests.RawConnection

    /// A keep-alive HTTP/1.1 connection from a chosen loopback address, asking for `/health` once
    /// per call of ``health()``.
    struct KeepAliveConnection {
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

        static func open(port: Int, from source: String) async throws -> KeepAliveConnection {
            let bootstrap = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(to: SocketAddress(ipAddress: source, port: 0))
            let channel = try await bootstrap.connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
            return KeepAliveConnection(channel: channel)
        }

        /// Sends `rounds` requests one after another, each once `nextRound` lets it, and counts
        /// the answers 200; after the first request left unanswered or refused it sends no more,
        /// but still waits for each round.
        func answered(rounds: Int, nextRound: @escaping @Sendable (Int) async -> Void) async -> Int {
            var answered = 0
            try? await channel.executeThenClose { inbound, outbound in
                var responses = inbound.makeAsyncIterator()
                var failed = false
                for round in 0..<rounds {
                    await nextRound(round)
                    guard !failed else { continue }
                    do {
                        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: HubAPI.healthPath)
                        head.headers.add(name: "Host", value: "127.0.0.1")
                        try await outbound.write(contentsOf: [.head(head), .end(nil)])
                        var status: HTTPResponseStatus?
                        while let part = try await responses.next() {
                            if case .head(let responseHead) = part { status = responseHead.status }
                            if case .end = part { break }
                        }
                        if status == .ok { answered += 1 } else { failed = true }
                    } catch {
                        failed = true
                    }
                }
            }
            return answered
        }
    }

    /// Whether a new connection from `source` gets `/health` answered 200 within `limit`.
    static func healthAnswers(port: Int, from source: String, within limit: Duration) async -> Bool {
        guard let connection = try? await RawConnection.open(port: port, from: source) else { return false }
        defer { connection.channel.close(promise: nil) }
        try? await connection.send("GET \(HubAPI.healthPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let reply = try? await withDeadline(limit, "no answer") { try await connection.reply.get() }
        return reply?.hasPrefix("HTTP/1.1 200") == true
    }

    @Test func anAddressHoldingOneHundredSilentConnectionsIsStillAnswered() async throws {
        // Given a server with the default limits and 100 silent connections from 127.0.0.5,
        // reopened as the server closes them
        let server = try await RunningServer.start(ConnectionLimits())
        defer { server.stop() }
        let (opens, sink) = AsyncStream.makeStream(of: Void.self)
        let flood = ConnectionLimitTests.silentFlood(port: server.port, connections: 100, from: ["127.0.0.5"]) { sink.yield() }
        defer { flood.cancel() }
        try await ConnectionLimitTests.waitFor(100, of: opens, within: .seconds(30), "fewer than 100 silent connections were accepted")

        // When 20 new clients of that address and one of another ask for /health
        var answered = 0
        for _ in 0..<20 where await Self.healthAnswers(port: server.port, from: "127.0.0.5", within: .seconds(3)) { answered += 1 }

        // Then every one is answered
        #expect(answered == 20)
        #expect(await Self.healthAnswers(port: server.port, from: "127.0.0.6", within: .seconds(3)))
        flood.cancel()
    }

    @Test func onehundredTwentyKeepAliveConnectionsOfOneAddressLoseNoRequest() async throws {
        // Given a server with the default limits, and 20 users behind one address with 6
        // keep-alive connections each
        let server = try await RunningServer.start(ConnectionLimits())
        defer { server.stop() }
        var connections: [KeepAliveConnection] = []
        for _ in 0..<120 { connections.append(try await KeepAliveConnection.open(port: server.port, from: "127.0.0.5")) }

        // When every connection sends 13 requests, a round at a time, idle between rounds
        let rounds = 13
        let barrier = RoundBarrier(parties: connections.count)
        let answered = await withTaskGroup(of: Int.self) { group in
            for connection in connections {
                group.addTask { await connection.answered(rounds: rounds) { await barrier.arrive(round: $0) } }
            }
            return await group.reduce(0, +)
        }

        // Then all 1,560 are answered
        #expect(answered == 120 * rounds)
    }

    @Test func silentConnectionsAreReclaimedBeforeUsedOnes() async throws {
        // Given a server capped at 20 connections (10 idle ones) that waits 60 s for a request,
        // and 5 keep-alive connections that have each had an answer
        let server = try await RunningServer.start(ConnectionLimits(maxConnections: 20, headerTimeout: .seconds(60)))
        defer { server.stop() }
        var used: [KeepAliveConnection] = []
        for _ in 0..<5 { used.append(try await KeepAliveConnection.open(port: server.port, from: "127.0.0.5")) }
        let (firstAnswers, firstSink) = AsyncStream.makeStream(of: Void.self)
        let gate = Gate()
        let results = Task {
            await withTaskGroup(of: Int.self) { group in
                for connection in used {
                    group.addTask {
                        await connection.answered(rounds: 2) { round in
                            if round == 1 {
                                firstSink.yield()
                                await gate.wait()
                            }
                        }
                    }
                }
                return await group.reduce(0, +)
            }
        }
        try await ConnectionLimitTests.waitFor(5, of: firstAnswers, within: .seconds(10), "the first answers did not come")

        // When 50 silent connections of the same address come in, past the idle cap
        var silent: [RawConnection] = []
        for _ in 0..<50 { silent.append(try await RawConnection.open(port: server.port, from: "127.0.0.5")) }
        #expect(await Self.healthAnswers(port: server.port, from: "127.0.0.6", within: .seconds(10)))

        // Then the used connections' next requests are all answered: the silent ones made room
        await gate.open()
        #expect(await results.value == 10)
        _ = silent
    }

    /// Registers `channel` through a proxy on 127.0.0.1 that says the client is `client`.
    static func register(port: Int, channel: Int, forwardedFor client: String, header: String = "X-Forwarded-For") async throws -> HTTPResponseStatus {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(HubAPI.registerPath)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: header, value: header == "Forwarded" ? "for=\"\(client)\";proto=https" : client)
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(HubRegisterRequest(channelIDs: [YouTubeStub.channelID(channel)]))))
        return try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status
    }

    /// A server that lets one client register 1 new channel an hour, trusting `proxies`.
    static func registrationServer(trusting proxies: [String]) async throws -> (port: Int, service: BackgroundService) {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var configuration = ServerConfiguration(pollInterval: nil, onListening: { _, port in continuation.yield(port) })
        configuration.registrationsPerHour = 1
        configuration.trustedProxies = proxies
        configuration.logger.logLevel = .critical
        let service = BackgroundService(try await buildApplication(configuration: configuration), logger: configuration.logger)
        guard let port = await ports.first(where: { _ in true }) else { throw ServerError.notFound }
        return (port, service)
    }

    @Test(arguments: ["X-Forwarded-For", "Forwarded"])
    func aTrustedProxysForwardedAddressIsTheClients(header: String) async throws {
        // Given a server that trusts the proxy on 127.0.0.1
        let (port, service) = try await Self.registrationServer(trusting: ["127.0.0.1"])
        defer { service.stop() }

        // When two clients behind it register a channel each, and the first one another
        let first = try await Self.register(port: port, channel: 1, forwardedFor: "203.0.113.7", header: header)
        let second = try await Self.register(port: port, channel: 2, forwardedFor: "2001:db8::8", header: header)
        let firstAgain = try await Self.register(port: port, channel: 3, forwardedFor: "203.0.113.7", header: header)

        // Then each client is limited on its own
        #expect(first == .ok)
        #expect(second == .ok)
        #expect(firstAgain == .tooManyRequests)
    }

    @Test func anUntrustedPeersForwardedAddressIsIgnored() async throws {
        // Given a server that trusts no proxy
        let (port, service) = try await Self.registrationServer(trusting: [])
        defer { service.stop() }

        // When a client registers a channel, then claims to be another client
        let first = try await Self.register(port: port, channel: 1, forwardedFor: "203.0.113.7")
        let second = try await Self.register(port: port, channel: 2, forwardedFor: "203.0.113.8")

        // Then the claim is ignored: both count against the peer's own address
        #expect(first == .ok)
        #expect(second == .tooManyRequests)
    }

    @Test func forwardedAddresses() {
        let trusted = TrustedProxies(["10.0.0.1", "10.0.0.2"])
        #expect(trusted.client(peer: "10.0.0.1", forwarded: "for=192.0.2.60;proto=http, for=10.0.0.2", forwardedFor: nil) == "192.0.2.60")
        #expect(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "198.51.100.1, 192.0.2.9, 10.0.0.2") == "192.0.2.9")
        #expect(trusted.client(peer: "10.0.0.1", forwarded: "for=\"[2001:db8:cafe::17]:4711\"", forwardedFor: nil) == "2001:db8:cafe::17")
        #expect(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "not an address") == "10.0.0.1")
        #expect(trusted.client(peer: "10.0.0.1", forwarded: "for=unknown", forwardedFor: nil) == "10.0.0.1")
        #expect(trusted.client(peer: "10.0.0.3", forwarded: nil, forwardedFor: "192.0.2.9") == "10.0.0.3")
        #expect(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: String(repeating: "1.2.3.4, ", count: 10_000)) == "10.0.0.1")
    }
}

/// Lets a number of tasks through round `n` only once all of them have finished round `n − 1`.
private actor RoundBarrier {
    private let parties: Int
    private var arrived: [Int: Int] = [:]
    private var waiting: [Int: [CheckedContinuation<Void, Never>]] = [:]

    init(parties: Int) { self.parties = parties }

    func arrive(round: Int) async {
        arrived[round, default: 0] += 1
        if arrived[round] == parties {
            for continuation in waiting.removeValue(forKey: round) ?? [] { continuation.resume() }
            return
        }
        await withCheckedContinuation { waiting[round, default: []].append($0) }
    }
}

/// Holds tasks until it is opened.
private actor Gate {
    private var opened = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if opened { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        opened = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
