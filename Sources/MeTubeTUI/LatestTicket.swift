import Synchronization

/// Numbers requests so background work can tell it has been overtaken: only the newest ticket is
/// current. The details pane draws a picture only for the newest selection, so holding `j` does
/// not queue a decode per row passed.
final class LatestTicket: Sendable {
    private let newest = Atomic<Int>(0)

    /// A new ticket, which makes every earlier one stale.
    func next() -> Int { newest.add(1, ordering: .sequentiallyConsistent).newValue }

    /// Whether `ticket` is still the newest.
    func isCurrent(_ ticket: Int) -> Bool { newest.load(ordering: .sequentiallyConsistent) == ticket }
}
