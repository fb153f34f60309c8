import HummingbirdCore

/// Hummingbird's cap on open connections, counting only the admitted ones: connections that
/// ``ConnectionsByAddress`` parked hold no place, so a flood past its address's cap cannot stop
/// the server accepting new clients.
struct AdmittedConnectionCap: AvailableConnectionsDelegate {
    let maxConnections: Int
    let connectionsByAddress: ConnectionsByAddress
    private var open = 0

    init(maxConnections: Int, connectionsByAddress: ConnectionsByAddress) {
        self.maxConnections = maxConnections
        self.connectionsByAddress = connectionsByAddress
    }

    mutating func connectionOpened() { open += 1 }

    mutating func connectionClosed() { open -= 1 }

    func isAcceptingNewConnections() -> Bool {
        open - connectionsByAddress.parked < maxConnections
    }
}
