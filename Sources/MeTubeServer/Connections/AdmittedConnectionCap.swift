import HummingbirdCore

/// Hummingbird's cap on open connections, counting only those that hold a place: silent
/// connections that ``SilentConnections`` set aside hold none, so a flood of them cannot stop the
/// server accepting new clients.
struct AdmittedConnectionCap: AvailableConnectionsDelegate {
    let maxConnections: Int
    let silentConnections: SilentConnections
    private var open = 0

    init(maxConnections: Int, silentConnections: SilentConnections) {
        self.maxConnections = maxConnections
        self.silentConnections = silentConnections
    }

    mutating func connectionOpened() { open += 1 }

    mutating func connectionClosed() { open -= 1 }

    func isAcceptingNewConnections() -> Bool {
        open - silentConnections.setAside < maxConnections
    }
}
