import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The server's open connections counted by client address, so one address cannot take more
/// than its share of the server.
///
/// A connection is admitted or refused as it is accepted, before its pipeline is built: a refused
/// one costs the accept and a reset, no handlers, timers or task, so a client that reopens
/// connections as fast as they are refused spends far more than the server does, and the
/// connections it already holds are left alone (closing them would only make it reopen them).
final class ConnectionsByAddress: Sendable {
    private let maxPerAddress: Int
    private let open = Mutex<[String: Int]>([:])

    /// Counts that admit at most `maxPerAddress` connections of one address at once.
    init(maxPerAddress: Int) {
        self.maxPerAddress = max(1, maxPerAddress)
    }

    /// The connections open for `address` now.
    func count(of address: String) -> Int {
        open.withLock { $0[address] ?? 0 }
    }

    /// Admits `channel`, just accepted and not yet registered, when its address has room, and
    /// counts it until it closes; otherwise resets it (no `TIME_WAIT` is left behind) and answers
    /// false. Runs on the channel's event loop.
    func admit(_ channel: any Channel) -> Bool {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let admitted = open.withLock { open in
            let count = open[address] ?? 0
            guard count < maxPerAddress else { return false }
            open[address] = count + 1
            return true
        }
        guard admitted else {
            let reset = (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)) ?? channel.eventLoop.makeSucceededVoidFuture()
            reset.whenComplete { _ in channel.close(promise: nil) }
            return false
        }
        channel.closeFuture.whenComplete { _ in self.release(address) }
        return true
    }

    private func release(_ address: String) {
        open.withLock { open in
            let count = (open[address] ?? 1) - 1
            open[address] = count > 0 ? count : nil
        }
    }
}
