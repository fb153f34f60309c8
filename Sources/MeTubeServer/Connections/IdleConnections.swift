import Synchronization

/// The server's idle connections (those without a request in progress), oldest first, the silent
/// ones (that have sent nothing yet) apart from the used ones. When one more would exceed the cap,
/// the silent connection idle longest, from whichever address, is told to make room (set aside;
/// see ``SlowClientGuard``), and only when none is left the used one idle longest (closed): a
/// connection that has had an answer is never closed for a silent one. So silent connections never
/// fill the server's connection cap: new clients are still accepted, and a client sends its
/// request right after connecting, so it is never among them. Addresses are not counted: a
/// household behind one proxy shares one.
final class IdleConnections: Sendable {
    /// A connection's place in the list, handed back when it stops being idle.
    typealias Ticket = UInt64
    /// Closes the connection if it is still idle under the ticket; called outside the lock, from
    /// any thread.
    typealias Evict = @Sendable (Ticket) -> Void

    private struct Entry {
        let silent: Bool
        let evict: Evict
    }

    /// Tickets in the order they were issued; tickets no longer idle are skipped lazily.
    private struct TicketQueue {
        var tickets: [Ticket] = []
        var head = 0
        var count = 0

        mutating func append(_ ticket: Ticket) {
            tickets.append(ticket)
            count += 1
        }

        /// The oldest ticket in `entries`, taken off the queue.
        mutating func popOldest(in entries: [Ticket: Entry]) -> Ticket? {
            while head < tickets.count {
                let ticket = tickets[head]
                head += 1
                if entries[ticket] != nil { return ticket }
            }
            return nil
        }

        /// Drops the tickets no longer in `entries` once they outnumber the live ones, so the
        /// queue stays proportional to the idle connections.
        mutating func compact(in entries: [Ticket: Entry]) {
            guard tickets.count - head > 2 * count + 64 else { return }
            tickets = tickets[head...].filter { entries[$0] != nil }
            head = 0
        }
    }

    private struct State {
        var entries: [Ticket: Entry] = [:]
        var silent = TicketQueue()
        var used = TicketQueue()
        var nextTicket: Ticket = 0

        mutating func remove(_ ticket: Ticket) -> Entry? {
            guard let entry = entries.removeValue(forKey: ticket) else { return nil }
            if entry.silent {
                silent.count -= 1
                silent.compact(in: entries)
            } else {
                used.count -= 1
                used.compact(in: entries)
            }
            return entry
        }

        /// The oldest silent connection, else the oldest used one, taken off the list.
        mutating func removeOldest() -> (Ticket, Entry)? {
            let oldest = silent.popOldest(in: entries) ?? used.popOldest(in: entries)
            guard let oldest, let entry = remove(oldest) else { return nil }
            return (oldest, entry)
        }
    }

    private let maxIdle: Int
    private let state = Mutex(State())

    /// A list that keeps at most `maxIdle` idle connections.
    init(maxIdle: Int) {
        self.maxIdle = max(1, maxIdle)
    }

    /// The number of idle connections.
    var count: Int { state.withLock { $0.entries.count } }

    /// Adds a connection that has just become idle, `silent` when it has sent nothing yet, and
    /// evicts the oldest ones beyond the cap (never this one), silent ones first.
    func add(silent: Bool, evict: @escaping Evict) -> Ticket {
        let (ticket, evicted) = state.withLock { state -> (Ticket, [(Ticket, Entry)]) in
            state.nextTicket += 1
            let ticket = state.nextTicket
            var evicted: [(Ticket, Entry)] = []
            while state.entries.count >= maxIdle, let oldest = state.removeOldest() {
                evicted.append(oldest)
            }
            state.entries[ticket] = Entry(silent: silent, evict: evict)
            if silent { state.silent.append(ticket) } else { state.used.append(ticket) }
            return (ticket, evicted)
        }
        for (ticket, entry) in evicted { entry.evict(ticket) }
        return ticket
    }

    /// Takes the connection of `ticket` off the list: it started a request or closed.
    func remove(_ ticket: Ticket) {
        _ = state.withLock { $0.remove(ticket) }
    }
}
