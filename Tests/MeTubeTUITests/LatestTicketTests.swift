import Testing
@testable import MeTubeTUI

/// The details pane's picture tickets: a newer selection makes the older draw stale.
@Suite struct LatestTicketTests {
    @Test func onlyTheNewestTicketIsCurrent() {
        let tickets = LatestTicket()
        let first = tickets.next()
        #expect(tickets.isCurrent(first))
        let second = tickets.next()
        #expect(!tickets.isCurrent(first))
        #expect(tickets.isCurrent(second))
    }
}
