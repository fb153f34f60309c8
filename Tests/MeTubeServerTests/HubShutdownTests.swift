import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

@Suite struct HubShutdownTests {
    @Test(.timeLimit(.minutes(2)), arguments: [SIGTERM, SIGINT])
    func theDemoServerExitsCleanlyOnASignalWhileFeedsHang(signal: Int32) async throws {
        // Given the real metube-server binary in demo mode, polling feeds from a server that never answers
        let feeds = try SilentFeedServer()
        defer { feeds.close() }
        let directory = TemporaryDirectory("metube-shutdown")
        defer { directory.remove() }
        let server = try ServerProcess(arguments: [
            "serve", "--demo", "--host", "127.0.0.1", "--port", "0", "--database", directory.path("hub.sqlite"),
            "--feed-url-template", "http://127.0.0.1:\(feeds.port)/{channelId}",
        ])
        defer { server.kill() }
        try await server.listening(within: .seconds(60))
        await feeds.firstConnection()

        // When it receives the signal while feed requests are in flight
        server.send(signal)

        // Then it shuts down gracefully and exits with status 0 well before any feed timeout
        let status = try await server.exit(within: .seconds(15))
        #expect(status == 0)
    }
}

extension HubShutdownTests {
    @Test func theServerExitsWithinItsShutdownGraceWhileAClientHoldsAHalfSentRequest() async throws {
        // Given the real server with a 2 s shutdown grace, and a client holding half a request
        // (the request grace of 60 s keeps the connection guard from cutting it off first)
        let directory = TemporaryDirectory("metube-shutdown-grace")
        defer { directory.remove() }
        let server = try ServerProcess(arguments: [
            "serve", "--host", "127.0.0.1", "--port", "0", "--database", directory.path("hub.sqlite"), "--poll-interval", "0",
            "--request-grace", "60", "--shutdown-grace", "2",
        ])
        defer { server.kill() }
        let port = try await server.listening(within: .seconds(60))
        let connection = try await ConnectionLimitTests.RawConnection.open(port: port)
        try await connection.send(ConnectionLimitTests.halfSentRequest)

        // When it receives SIGTERM
        server.send(SIGTERM)

        // Then it exits cleanly soon after the grace, instead of waiting for the request forever
        let status = try await server.exit(within: .seconds(15))
        #expect(status == 0)
    }
}

/// A TCP listener on 127.0.0.1 that accepts connections and never answers, like a hung feed host.
private final class SilentFeedServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let socketDescriptor: Int32
    private let accepted: AsyncStream<Void>

    /// Binds an ephemeral port and starts accepting on a background thread.
    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ShutdownTestFailure("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 64) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw ShutdownTestFailure("cannot listen on 127.0.0.1") }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let (accepted, acceptedSink) = AsyncStream.makeStream(of: Void.self)
        self.accepted = accepted
        Thread {
            var connections: [Int32] = []
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { break }
                connections.append(connection)
                acceptedSink.yield()
            }
            connections.forEach { Glibc.close($0) }
            acceptedSink.finish()
        }.start()
    }

    /// Returns once a client has connected.
    func firstConnection() async {
        for await _ in accepted { return }
    }

    /// Stops listening; the accepting thread then drops every connection.
    func close() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        Glibc.close(socketDescriptor)
    }
}

/// Why a shutdown test gave up.
private struct ShutdownTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

