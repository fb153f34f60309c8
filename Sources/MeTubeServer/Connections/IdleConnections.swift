import Synchronization

/// The server's idle connections (those without a request in progress), oldest first, overall and
/// by client address. When one more would exceed a cap, the connections idle longest are told to
/// make room (closed, or set aside if they have sent nothing yet; see ``SlowClientGuard``), so
/// silent connections never fill the server's connection cap: new clients are still accepted, and
/// a client sends its request right after connecting, so it is never the oldest.
final class IdleConnections: Sendable {
    /// A connection's place in the list, handed back when it stops being idle.
    typealias Ticket = UInt64
    /// Closes the connection if it is still idle under the ticket; called outside the lock, from
    /// any thread.
    typealias Evict = @Sendable (Ticket) -> Void

    private struct Entry {
        let address: String
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
        var all = TicketQueue()
        var byAddress: [String: TicketQueue] = [:]
        var nextTicket: Ticket = 0

        mutating func remove(_ ticket: Ticket) -> Entry? {
            guard let entry = entries.removeValue(forKey: ticket) else { return nil }
            all.count -= 1
            all.compact(in: entries)
            if var queue = byAddress[entry.address] {
                queue.count -= 1
                if queue.count == 0 {
                    byAddress[entry.address] = nil
                } else {
                    queue.compact(in: entries)
                    byAddress[entry.address] = queue
                }
            }
            return entry
        }
    }

    private let maxIdle: Int
    private let maxIdlePerAddress: Int
    private let state = Mutex(State())

    /// A list that keeps at most `maxIdle` idle connections, `maxIdlePerAddress` of one address.
    init(maxIdle: Int, maxIdlePerAddress: Int) {
        self.maxIdle = max(1, maxIdle)
        self.maxIdlePerAddress = max(1, maxIdlePerAddress)
    }

    /// The number of idle connections.
    var count: Int { state.withLock { $0.entries.count } }

    /// Adds a connection from `address` that has just become idle, and evicts the oldest ones
    /// beyond the caps (never this one).
    func add(address: String, evict: @escaping Evict) -> Ticket {
        let (ticket, evicted) = state.withLock { state -> (Ticket, [(Ticket, Entry)]) in
            state.nextTicket += 1
            let ticket = state.nextTicket
            state.entries[ticket] = Entry(address: address, evict: evict)
            state.all.append(ticket)
            state.byAddress[address, default: TicketQueue()].append(ticket)
            var evicted: [(Ticket, Entry)] = []
            while let count = state.byAddress[address]?.count, count > maxIdlePerAddress,
                  let oldest = state.byAddress[address]?.popOldest(in: state.entries), let entry = state.remove(oldest) {
                evicted.append((oldest, entry))
            }
            while state.all.count > maxIdle, let oldest = state.all.popOldest(in: state.entries), let entry = state.remove(oldest) {
                evicted.append((oldest, entry))
            }
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
