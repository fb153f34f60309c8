import NIOCore

/// Closes a connection that holds the server without using it (see ``ConnectionLimits``).
///
/// It sits first in the pipeline, before the HTTP decoder, so it counts raw bytes, a half-sent
/// request line or header included. A connection is *idle* from its start and from each answer
/// the server begins to write, and is closed when idle for `idleTimeout`. The first byte after
/// that starts a request; from then on the bytes that arrived must keep up with
/// `minimumBytesPerSecond × (elapsed − requestGrace)` until the server begins its answer. One
/// timer per connection, set for the moment the rule would next be broken.
final class SlowClientGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum State {
        case idle(since: NIODeadline)
        case receiving(since: NIODeadline, bytes: Int)
    }

    private let limits: ConnectionLimits
    private var state = State.idle(since: .now())
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { becomeIdle(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        becomeIdle(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let count = unwrapInboundIn(data).readableBytes
        switch state {
        case .idle:
            state = .receiving(since: .now(), bytes: count)
            schedule(context: context)
        case .receiving(let since, let bytes):
            state = .receiving(since: since, bytes: bytes + count)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch state {
        case .receiving: becomeIdle(context: context)
        case .idle: state = .idle(since: .now())
        }
        context.write(data, promise: promise)
    }

    private func becomeIdle(context: ChannelHandlerContext) {
        state = .idle(since: .now())
        schedule(context: context)
    }

    /// Sets the timer for the moment the current state's rule would be broken.
    private func schedule(context: ChannelHandlerContext) {
        timer?.cancel()
        let deadline: NIODeadline
        switch state {
        case .idle(let since):
            deadline = since + TimeAmount(limits.idleTimeout)
        case .receiving(let since, let bytes):
            let allowed = Double(bytes) / Double(max(limits.minimumBytesPerSecond, 1))
            deadline = since + TimeAmount(limits.requestGrace) + .nanoseconds(Int64(min(allowed, 86_400) * 1e9)) + .milliseconds(1)
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.check(context: context)
        }
    }

    private func check(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        switch state {
        case .idle(let since):
            guard now - since < TimeAmount(limits.idleTimeout) else { return close(context: context) }
        case .receiving(let since, let bytes):
            let elapsed = Double((now - since - TimeAmount(limits.requestGrace)).nanoseconds) / 1e9
            guard Double(bytes) >= elapsed * Double(limits.minimumBytesPerSecond) else { return close(context: context) }
        }
        schedule(context: context)
    }

    private func close(context: ChannelHandlerContext) {
        timer = nil
        context.close(promise: nil)
    }
}

extension TimeAmount {
    /// The same span as `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
