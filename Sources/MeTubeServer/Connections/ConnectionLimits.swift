/// How long and how slowly a client may hold a connection, and how many it may hold.
///
/// These bound what a client can take without sending a request: `maxConnections` caps the
/// connections open at once (new ones wait in the listen backlog until one closes); a new
/// connection must send a whole request head within `headerTimeout`, and one that waits between
/// requests is closed after `idleTimeout`; a request must arrive at `minimumBytesPerSecond` on
/// average once `requestGrace` has passed since its first byte, or the connection is closed.
/// Connections without a request in progress are *idle*: beyond `maxIdleConnections` of them, the
/// silent one (that has sent nothing yet) idle longest makes room, from whichever address; only
/// when none is left, the used one idle longest. A silent one is set aside, holding no place under
/// `maxConnections` until its header timeout closes it (closed at once, a flood's connections would
/// be reopened as fast as they are closed), up to four times `maxConnections` set aside; a used one
/// is closed. So silent connections never fill the cap and new clients are still accepted. No cap
/// counts connections by address: a household behind one proxy or NAT shares one, and a request is
/// never refused for its address alone (see ``SilentConnections``). Only the client's
/// own time counts: once its request has arrived, nothing is charged until the answer is
/// written, and a handler that runs past `handlerDeadline` is answered 503 (`Retry-After`).
public struct ConnectionLimits: Sendable, Equatable {
    /// The most connections open at once.
    public var maxConnections: Int
    /// How long a connection may sit without a request between two requests.
    public var idleTimeout: Duration
    /// How long a new connection (or one that started a request) may take to send a whole
    /// request head.
    public var headerTimeout: Duration
    /// How long a request may take to arrive before the rate rule applies.
    public var requestGrace: Duration
    /// The slowest average rate a request may arrive at after `requestGrace`.
    public var minimumBytesPerSecond: Int
    /// The most idle connections counted under `maxConnections`; beyond it the silent one idle
    /// longest is set aside, or, with none, the used one idle longest is closed.
    public var maxIdleConnections: Int
    /// How long a request's handler may run once the request has arrived before the client is
    /// answered 503.
    public var handlerDeadline: Duration

    /// Creates limits; the defaults suit a server for a few hundred users. The idle cap defaults
    /// to half of `maxConnections`.
    public init(
        maxConnections: Int = 1_000, idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(5),
        requestGrace: Duration = .seconds(10), minimumBytesPerSecond: Int = 1_024,
        maxIdleConnections: Int? = nil,
        handlerDeadline: Duration = .seconds(10)
    ) {
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.requestGrace = requestGrace
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.maxIdleConnections = maxIdleConnections ?? max(1, maxConnections / 2)
        self.handlerDeadline = handlerDeadline
    }
}
