import NIOCore
import Synchronization

/// The silent connections set aside: admitted connections that have sent nothing and that the
/// idle list had no room for. They hold no place under the server's connection cap, so silent
/// connections (from any number of addresses, or one) never stop the server accepting clients,
/// until each sends its request or its header timeout closes it. Closing one at once would only
/// have a flood reopen it straight away, keeping the listen backlog full ahead of new clients.
///
/// A connection is never refused for its address: a household behind one reverse proxy or
/// carrier-grade NAT shares it. Work is limited per user and per unauthenticated client instead.
/// Setting a connection aside tells the listening channel to accept again, in case it stopped at
/// the cap.
final class SilentConnections: Sendable {
    private struct State {
        var setAside = 0
        var listener: (any Channel)?
    }

    private let maxSetAside: Int
    private let state = Mutex(State())

    /// Counts that set aside at most `maxSetAside` silent connections at once.
    init(maxSetAside: Int) {
        self.maxSetAside = max(0, maxSetAside)
    }

    /// The connections set aside now.
    var setAside: Int { state.withLock { $0.setAside } }

    /// The server's listening channel, told to accept again when a connection is set aside.
    func accepting(on listener: any Channel) {
        state.withLock { $0.listener = listener }
    }

    /// Counts an admitted connection that has sent nothing and that the idle list has no room
    /// for as set aside, until ``takeBack()``; false when `maxSetAside` are set aside already (the
    /// caller closes it then).
    func setAsideSilent() -> Bool {
        let (setAside, listener) = state.withLock { state -> (Bool, (any Channel)?) in
            guard state.setAside < maxSetAside else { return (false, nil) }
            state.setAside += 1
            return (true, state.listener)
        }
        listener?.read()
        return setAside
    }

    /// Gives a connection set aside by ``setAsideSilent()`` its place back: it sent its request,
    /// or it closed.
    func takeBack() {
        state.withLock { $0.setAside -= 1 }
    }
}
