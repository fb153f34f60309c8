import NIOCore

/// Closes a connection that holds the server without using it (see ``ConnectionLimits``), and
/// charges the client only for its own time.
///
/// It sits first in the pipeline, before the HTTP decoder, so it counts raw bytes, a half-sent
/// request line or header included; a ``RequestProgressObserver`` behind the decoder tells it when
/// a request's head and end have arrived and when the answer starts and ends. A connection is
/// *idle* from its start and after each answer: a new one must send a request head within
/// `headerTimeout`, a used one is closed when idle for `idleTimeout`, and while idle it is listed
/// in ``IdleConnections`` (a new one after ``firstRequestGrace``), which may take it off to make
/// room: one idle between requests is closed then, and one that has sent nothing yet is set aside
/// (``SilentConnections/setAsideSilent()``) until its header timeout closes it, since closing
/// it at once would only have a flood reopen it straight away. The first byte starts a request:
/// its head must arrive within `headerTimeout`, and the bytes must keep up with
/// `minimumBytesPerSecond × (elapsed − requestGrace)` until the request has arrived. While the
/// server works on the request nothing is timed here (the handler has its own deadline); while
/// it answers, each write must follow the last within `idleTimeout`. One timer per connection,
/// set for the moment the current rule would next be broken.
final class SlowClientGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum State {
        /// No request in progress; `fresh` until the connection's first request.
        case idle(since: NIODeadline, fresh: Bool, ticket: IdleConnections.Ticket?)
        /// A request is arriving; its head is due by `headDue` (nil once it has arrived).
        case receiving(since: NIODeadline, bytes: Int, headDue: NIODeadline?)
        /// The request has arrived and the server is working on it.
        case handling
        /// The server is writing its answer; the last write was at `since`.
        case answering(since: NIODeadline)
    }

    private let limits: ConnectionLimits
    private let idleConnections: IdleConnections
    private let silentConnections: SilentConnections
    private let connectedAt = NIODeadline.now()
    private var state: State
    private var timer: Scheduled<Void>?
    private var listing: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// Whether the connection, silent, is set aside: it holds no place under the server's cap.
    private var setAside = false

    /// How long a new connection stays off the idle list: a client sends its request right after
    /// connecting, so it is reading it, not waiting, when connections flood in and the list
    /// closes the oldest.
    static let firstRequestGrace = TimeAmount.milliseconds(20)

    init(limits: ConnectionLimits, idleConnections: IdleConnections, silentConnections: SilentConnections) {
        self.limits = limits
        self.idleConnections = idleConnections
        self.silentConnections = silentConnections
        state = .idle(since: connectedAt, fresh: true, ticket: nil)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { becomeIdle(fresh: true) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if case .idle(_, true, nil) = state { becomeIdle(fresh: true) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let count = unwrapInboundIn(data).readableBytes
        switch state {
        case .idle(_, let fresh, let ticket):
            leaveIdle(ticket)
            let now = NIODeadline.now()
            let headDue = (fresh ? connectedAt : now) + TimeAmount(limits.headerTimeout)
            state = .receiving(since: now, bytes: count, headDue: headDue)
            schedule()
        case .receiving(let since, let bytes, let headDue):
            state = .receiving(since: since, bytes: bytes + count, headDue: headDue)
        case .handling, .answering:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch state {
        case .answering: state = .answering(since: .now())
        case .idle(_, let fresh, let ticket): state = .idle(since: .now(), fresh: fresh, ticket: ticket)
        case .receiving, .handling: break
        }
        context.write(data, promise: promise)
    }

    /// The request's head has been decoded.
    func headReceived() {
        guard case .receiving(let since, let bytes, _) = state else { return }
        state = .receiving(since: since, bytes: bytes, headDue: nil)
        schedule()
    }

    /// The whole request has arrived: from now on the server's time is not the client's.
    func requestReceived() {
        guard case .receiving = state else { return }
        state = .handling
        timer?.cancel()
        timer = nil
    }

    /// The server has begun to write its answer.
    func answerStarted() {
        switch state {
        case .idle(_, _, let ticket): leaveIdle(ticket)
        case .receiving, .handling, .answering: break
        }
        state = .answering(since: .now())
        schedule()
    }

    /// The server has written the end of its answer.
    func answerEnded() {
        becomeIdle(fresh: false)
    }

    private func becomeIdle(fresh: Bool) {
        if case .idle(_, _, let ticket) = state { leaveIdle(ticket) }
        state = .idle(since: .now(), fresh: fresh, ticket: nil)
        if let context {
            if fresh {
                listing = context.eventLoop.assumeIsolated().scheduleTask(in: Self.firstRequestGrace) { [weak self] in
                    self?.list()
                }
            } else {
                list()
            }
        }
        schedule()
    }

    /// Puts the connection, idle, on the idle list.
    private func list() {
        listing = nil
        guard let context, case .idle(let since, let fresh, nil) = state else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let ticket = idleConnections.add(silent: fresh) { ticket in
            eventLoop.execute { loopBound.value.evict(ticket) }
        }
        state = .idle(since: since, fresh: fresh, ticket: ticket)
    }

    private func leaveIdle(_ ticket: IdleConnections.Ticket?) {
        listing?.cancel()
        listing = nil
        if let ticket { idleConnections.remove(ticket) }
        if setAside {
            setAside = false
            silentConnections.takeBack()
        }
    }

    /// Takes the connection off the idle list if it is still idle under `ticket` (the list needs
    /// room): sets it aside if it has sent nothing yet and there is room for that (its header
    /// timer still runs), closes it otherwise.
    private func evict(_ ticket: IdleConnections.Ticket) {
        guard case .idle(let since, let fresh, let current) = state, current == ticket else { return }
        state = .idle(since: since, fresh: fresh, ticket: nil)
        if fresh, silentConnections.setAsideSilent() {
            setAside = true
        } else {
            close()
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if case .idle(let since, let fresh, let ticket) = state {
            leaveIdle(ticket)
            state = .idle(since: since, fresh: fresh, ticket: nil)
        }
    }

    /// When the current state's rule would be broken, if it has one.
    private var deadline: NIODeadline? {
        switch state {
        case .idle(let since, let fresh, _):
            return since + TimeAmount(fresh ? limits.headerTimeout : limits.idleTimeout)
        case .receiving(let since, let bytes, let headDue):
            let allowed = Double(bytes) / Double(max(limits.minimumBytesPerSecond, 1))
            let rateDue = since + TimeAmount(limits.requestGrace) + .nanoseconds(Int64(min(allowed, 86_400) * 1e9)) + .milliseconds(1)
            return headDue.map { min($0, rateDue) } ?? rateDue
        case .handling:
            return nil
        case .answering(let since):
            return since + TimeAmount(limits.idleTimeout)
        }
    }

    /// Sets the timer for the moment the current state's rule would be broken.
    private func schedule() {
        timer?.cancel()
        timer = nil
        guard let context, let deadline else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.check()
        }
    }

    private func check() {
        let now = NIODeadline.now()
        switch state {
        case .idle, .answering:
            if let deadline, now >= deadline { return close() }
        case .receiving(let since, let bytes, let headDue):
            if let headDue, now >= headDue { return close() }
            let elapsed = Double((now - since - TimeAmount(limits.requestGrace)).nanoseconds) / 1e9
            guard Double(bytes) >= elapsed * Double(limits.minimumBytesPerSecond) else { return close() }
        case .handling:
            return
        }
        schedule()
    }

    private func close() {
        timer = nil
        context?.close(promise: nil)
    }
}

extension TimeAmount {
    /// The same span as `duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
