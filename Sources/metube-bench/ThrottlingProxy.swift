import Foundation
import MeTubeCore
import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback that plays a slow link: every byte crosses a link of `bitsPerSecond`
/// each way, shared by all connections as on a real line, and arrives half a round trip after it
/// left. It counts the bytes it carries each way, refuses connections past `maxConnections`,
/// holds at most `maxQueuedBytes` a connection and direction in flight (reading waits while more
/// are), and closes itself after `lifetime`. TCP's own slow start and losses are not played.
final class ThrottlingProxy: Sendable {
    /// The link a proxy plays.
    struct Link: Sendable, CustomStringConvertible {
        var bitsPerSecond: Double
        var roundTrip: Duration

        var description: String {
            let megabits = bitsPerSecond / 1_000_000
            return "\(megabits.formatted()) Mbit/s, \(Int(roundTrip.milliseconds)) ms RTT"
        }
    }

    /// `http://127.0.0.1:PORT`.
    let url: String
    private let group: MultiThreadedEventLoopGroup
    private let channel: any NIOCore.Channel
    private let counters: ByteCounters

    private init(url: String, group: MultiThreadedEventLoopGroup, channel: any NIOCore.Channel, counters: ByteCounters) {
        self.url = url
        self.group = group
        self.channel = channel
        self.counters = counters
    }

    /// Bytes carried from the client to the server so far.
    var bytesUp: Int { counters.state.withLock { $0.up } }
    /// Bytes carried from the server to the client so far.
    var bytesDown: Int { counters.state.withLock { $0.down } }

    /// Sets both byte counts back to zero.
    func resetCounts() { counters.state.withLock { $0 = (0, 0) } }

    /// Starts a proxy to `upstreamPort` on 127.0.0.1 playing `link`.
    static func start(
        upstreamPort: Int, link: Link, maxConnections: Int = 64, maxQueuedBytes: Int = 256 << 10, lifetime: Duration = .seconds(900)
    ) async throws -> ThrottlingProxy {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let counters = ByteCounters()
        let links = (up: LinkClock(link: link), down: LinkClock(link: link))
        let open = OpenConnections()
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                let admitted = open.count.withLock { count in
                    guard count < maxConnections else { return false }
                    count += 1
                    return true
                }
                guard admitted else { return inbound.close() }
                inbound.closeFuture.whenComplete { _ in open.count.withLock { $0 -= 1 } }
                return ClientBootstrap(group: loop)
                    .channelOption(.autoRead, value: false)
                    .connect(host: "127.0.0.1", port: upstreamPort)
                    .flatMap { outbound in
                        let toServer = DelayedRelay(peer: outbound, clock: links.up, counters: counters, direction: \.up, maxQueuedBytes: maxQueuedBytes)
                        let toClient = DelayedRelay(peer: inbound, clock: links.down, counters: counters, direction: \.down, maxQueuedBytes: maxQueuedBytes)
                        do {
                            try inbound.pipeline.syncOperations.addHandler(toServer)
                            try outbound.pipeline.syncOperations.addHandler(toClient)
                        } catch {
                            return inbound.eventLoop.makeFailedFuture(error)
                        }
                        return inbound.eventLoop.makeSucceededVoidFuture()
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        loop.scheduleTask(in: .nanoseconds(lifetime.nanosecondsClamped)) { server.close(promise: nil) }
        return ThrottlingProxy(url: "http://127.0.0.1:\(server.localAddress?.port ?? 0)", group: group, channel: server, counters: counters)
    }

    /// Closes the proxy and every connection through it.
    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// The connections a proxy holds open.
private final class OpenConnections: Sendable {
    let count = Mutex(0)
}

/// The bytes a proxy carried each way.
private final class ByteCounters: Sendable {
    let state = Mutex<(up: Int, down: Int)>((0, 0))
}

/// One direction of a link: when it is next free to send. Used only on the proxy's one event
/// loop.
private final class LinkClock: @unchecked Sendable {
    // Safe: the proxy runs every channel on one event loop, the only thread that touches it.
    let link: ThrottlingProxy.Link
    var freeAt = NIODeadline.now()

    init(link: ThrottlingProxy.Link) { self.link = link }

    /// When `bytes` sent now arrive at the far end.
    func arrival(of bytes: Int) -> NIODeadline {
        let start = max(freeAt, .now())
        freeAt = start + .nanoseconds(Int64(Double(bytes) * 8 / link.bitsPerSecond * 1e9))
        return freeAt + .nanoseconds(link.roundTrip.nanosecondsClamped / 2)
    }
}

/// Reads from its channel and writes to `peer` when the link delivers; closes `peer` once
/// everything read before the close has arrived.
private final class DelayedRelay: ChannelInboundHandler, @unchecked Sendable {
    // Safe: both channels of a pair, and so this handler, live on the proxy's one event loop.
    typealias InboundIn = ByteBuffer

    private let peer: any NIOCore.Channel
    private let clock: LinkClock
    private let counters: ByteCounters
    private let direction: WritableKeyPath<(up: Int, down: Int), Int>
    private let maxQueuedBytes: Int
    private var queued = 0

    init(peer: any NIOCore.Channel, clock: LinkClock, counters: ByteCounters, direction: WritableKeyPath<(up: Int, down: Int), Int>, maxQueuedBytes: Int) {
        self.peer = peer
        self.clock = clock
        self.counters = counters
        self.direction = direction
        self.maxQueuedBytes = maxQueuedBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.read() }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let source = context.channel
        while buffer.readableBytes > 0, let piece = buffer.readSlice(length: min(buffer.readableBytes, 16 << 10)) {
            queued += piece.readableBytes
            let arrival = clock.arrival(of: piece.readableBytes)
            source.eventLoop.scheduleTask(deadline: arrival) { [self] in
                queued -= piece.readableBytes
                counters.state.withLock { $0[keyPath: direction] += piece.readableBytes }
                peer.writeAndFlush(piece, promise: nil)
                if queued < maxQueuedBytes { source.read() }
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if queued < maxQueuedBytes { context.read() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let peer = peer
        context.eventLoop.scheduleTask(deadline: clock.arrival(of: 0)) { peer.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

extension Duration {
    /// This duration in nanoseconds, clamped to Int64.
    fileprivate var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}
