/// How long and how slowly a client may hold a connection, and how many it may hold.
///
/// These bound what a client can take without sending a request: `maxConnections` caps the
/// connections open at once (new ones wait in the listen backlog until one closes); a connection
/// with no request in progress is closed after `idleTimeout`; a request must arrive at
/// `minimumBytesPerSecond` on average once `requestGrace` has passed since its first byte, or the
/// connection is closed.
public struct ConnectionLimits: Sendable, Equatable {
    /// The most connections open at once.
    public var maxConnections: Int
    /// How long a connection may sit without a request.
    public var idleTimeout: Duration
    /// How long a request may take to arrive before the rate rule applies.
    public var requestGrace: Duration
    /// The slowest average rate a request may arrive at after `requestGrace`.
    public var minimumBytesPerSecond: Int

    /// Creates limits; the defaults suit a server for a few hundred users.
    public init(maxConnections: Int = 1_000, idleTimeout: Duration = .seconds(60), requestGrace: Duration = .seconds(10), minimumBytesPerSecond: Int = 1_024) {
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.requestGrace = requestGrace
        self.minimumBytesPerSecond = minimumBytesPerSecond
    }
}
