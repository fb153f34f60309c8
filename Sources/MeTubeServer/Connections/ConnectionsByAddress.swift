import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The server's open connections counted by client address, so one address cannot take more
/// than its share of the server.
///
/// A connection is admitted or refused as it is accepted, before its pipeline is built. A refused
/// one is *parked*: kept, never read from and never registered with the event loop, so it costs
/// a file descriptor and no event-loop time, and reset once `parkFor` has passed. Resetting it
/// at once would only make its client reopen it straight away, and a client reopening
/// connections as fast as the server resets them keeps the listen backlog full, so new clients'
/// connections would wait behind its. Beyond `maxParked` parked connections one more is reset at
/// once. Those an address holds are left alone (closing them would only make it reopen them).
///
/// An admitted connection that has sent nothing and that the idle list has no room for is
/// *set aside* (``setAsideSilent()``): it counts as parked too, holding no place under the
/// server's cap, until it sends its request or its header timeout closes it. Parking or setting
/// a connection aside tells the listening channel to accept again, in case it stopped at the cap.
final class ConnectionsByAddress: Sendable {
    private struct State {
        var open: [String: Int] = [:]
        var parked = 0
        var listener: (any Channel)?
    }

    private let maxPerAddress: Int
    private let maxParked: Int
    private let parkFor: TimeAmount
    private let state = Mutex(State())

    /// Counts that admit at most `maxPerAddress` connections of one address at once and park up
    /// to `maxParked` refused ones for `parkFor` each.
    init(maxPerAddress: Int, maxParked: Int, parkFor: TimeAmount) {
        self.maxPerAddress = max(1, maxPerAddress)
        self.maxParked = max(0, maxParked)
        self.parkFor = parkFor
    }

    /// The connections parked now: accepted and refused and not yet reset, or set aside.
    var parked: Int { state.withLock { $0.parked } }

    /// The server's listening channel, told to accept again when a connection is parked.
    func accepting(on listener: any Channel) {
        state.withLock { $0.listener = listener }
    }

    /// Counts an admitted connection that has sent nothing and that the idle list has no room
    /// for as parked, until ``takeBackSilent()``; false when `maxParked` are parked already (the
    /// caller closes it then).
    func setAsideSilent() -> Bool {
        let (setAside, listener) = state.withLock { state -> (Bool, (any Channel)?) in
            guard state.parked < maxParked else { return (false, nil) }
            state.parked += 1
            return (true, state.listener)
        }
        listener?.read()
        return setAside
    }

    /// Gives a connection set aside by ``setAsideSilent()`` its place back: it sent its request,
    /// or it closed.
    func takeBackSilent() {
        state.withLock { $0.parked -= 1 }
    }

    /// Admits `channel`, just accepted and not yet registered, when its address has room, and
    /// counts it until it closes; otherwise parks or resets it and answers false. Runs on the
    /// channel's event loop.
    func admit(_ channel: any Channel) -> Bool {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        enum Decision { case admit, park, reset }
        let (decision, listener) = state.withLock { state -> (Decision, (any Channel)?) in
            let count = state.open[address] ?? 0
            if count < maxPerAddress {
                state.open[address] = count + 1
                return (.admit, nil)
            }
            guard state.parked < maxParked else { return (.reset, nil) }
            state.parked += 1
            return (.park, state.listener)
        }
        switch decision {
        case .admit:
            channel.closeFuture.whenComplete { _ in self.release(address) }
            return true
        case .park:
            listener?.read()
            channel.closeFuture.whenComplete { _ in self.state.withLock { $0.parked -= 1 } }
            channel.eventLoop.scheduleTask(in: parkFor) { Self.reset(channel) }
            return false
        case .reset:
            Self.reset(channel)
            return false
        }
    }

    /// Closes `channel` with a reset, so no `TIME_WAIT` is left behind.
    private static func reset(_ channel: any Channel) {
        let linger = (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)) ?? channel.eventLoop.makeSucceededVoidFuture()
        linger.whenComplete { _ in channel.close(promise: nil) }
    }

    private func release(_ address: String) {
        state.withLock { state in
            let count = (state.open[address] ?? 1) - 1
            state.open[address] = count > 0 ? count : nil
        }
    }
}
