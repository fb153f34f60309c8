/// How long and how slowly a client may hold a connection, and how many it may hold.
///
/// These bound what a client can take without sending a request: `maxConnections` caps the
/// connections open at once (new ones wait in the listen backlog until one closes); a new
/// connection must send a whole request head within `headerTimeout`, and one that waits between
/// requests is closed after `idleTimeout`; a request must arrive at `minimumBytesPerSecond` on
/// average once `requestGrace` has passed since its first byte, or the connection is closed.
/// One client address may hold `maxConnectionsPerAddress` connections at once; one more is
/// refused as it is accepted, before anything is set up for it: kept unread for `headerTimeout`,
/// then reset (see ``ConnectionsByAddress``), and those the address holds are left alone.
/// Connections without a request in progress are *idle*: beyond `maxIdleConnections` of them, or
/// `maxIdleConnectionsPerAddress` from one client address, the one idle longest makes room. It is
/// closed if it has had a request; if it has sent nothing yet it is set aside instead, holding no
/// place under `maxConnections` until its header timeout closes it (closed at once, a flood's
/// connections would be reopened as fast as they are closed), up to four times `maxConnections`
/// parked and set-aside connections. So silent connections never fill the cap and new clients
/// are still accepted. Only the client's
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
    /// The most idle connections counted under `maxConnections`; beyond it the one idle longest
    /// is closed, or set aside if it has sent nothing yet.
    public var maxIdleConnections: Int
    /// The most idle connections kept open for one client address.
    public var maxIdleConnectionsPerAddress: Int
    /// The most connections one client address may hold at once.
    public var maxConnectionsPerAddress: Int
    /// How long a request's handler may run once the request has arrived before the client is
    /// answered 503.
    public var handlerDeadline: Duration

    /// Creates limits; the defaults suit a server for a few hundred users. The idle caps default
    /// to half of `maxConnections`, and at most 100 of them for one address; one address may hold
    /// 100 connections by default (at most `maxConnections`).
    public init(
        maxConnections: Int = 1_000, idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(5),
        requestGrace: Duration = .seconds(10), minimumBytesPerSecond: Int = 1_024,
        maxIdleConnections: Int? = nil, maxIdleConnectionsPerAddress: Int? = nil, maxConnectionsPerAddress: Int? = nil,
        handlerDeadline: Duration = .seconds(10)
    ) {
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.requestGrace = requestGrace
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.maxIdleConnections = maxIdleConnections ?? max(1, maxConnections / 2)
        self.maxIdleConnectionsPerAddress = maxIdleConnectionsPerAddress ?? max(1, min(100, self.maxIdleConnections))
        self.maxConnectionsPerAddress = maxConnectionsPerAddress ?? max(1, min(100, maxConnections))
        self.handlerDeadline = handlerDeadline
    }
}
