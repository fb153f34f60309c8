@testable import MeTubeServer
import Synchronization
import Testing

@Suite("Status zone turns", .timeLimit(.minutes(1)))
struct StatusZoneTurnsTests {
    /// Turns whose deadline never ends a test of their order, however loaded the machine.
    private static func patientTurns() -> MarkSyncZoneTurns { MarkSyncZoneTurns(deadline: .seconds(600)) }

    private static func zone(_ name: String) -> MarkSyncZoneKey {
        MarkSyncZoneKey(database: MarkSyncDatabaseKey(userID: 1, container: "c", environment: "development"), zoneName: name)
    }

    @Test("callers of one zone never run at the same time, and all of them run")
    func oneAtATimePerZone() async throws {
        // Given 40 callers of one zone that each stay inside over several suspensions
        let turns = Self.patientTurns()
        let inside = Occupancy()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await turns.inTurn(for: Self.zone("z")) {
                        inside.state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        for _ in 0..<5 { await Task.yield() }
                        inside.state.withLock { $0.now -= 1; $0.ran += 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Then at most one was inside at any time, and every one ran
        #expect(inside.state.withLock { $0.most } == 1)
        #expect(inside.state.withLock { $0.ran } == 40)
    }

    @Test("another zone's caller runs while one zone's turn is held; a caller that throws passes the turn on")
    func zonesAreIndependent() async throws {
        let turns = Self.patientTurns()
        let (entered, enteredFeed) = AsyncStream<Void>.makeStream()
        let (gate, opener) = AsyncStream<Void>.makeStream()
        struct Refused: Error {}
        // Given a caller holding zone z's turn until the gate opens
        let holder = Task {
            try await turns.inTurn(for: Self.zone("z")) {
                enteredFeed.yield()
                for await _ in gate { break }
                throw Refused()
            }
        }
        for await _ in entered { break }
        // When a caller of zone y comes
        let other = try await turns.inTurn(for: Self.zone("y")) { "y ran" }
        // Then it ran while z's turn was held; and once the holder throws, z's next caller runs
        #expect(other == "y ran")
        opener.yield()
        await #expect(throws: Refused.self) { try await holder.value }
        #expect(try await turns.inTurn(for: Self.zone("z")) { "z ran" } == "z ran")
    }

    @Test("a caller whose turn is not free within the deadline fails with 503 and leaves the line; the next one still gets the turn")
    func aTurnHeldTooLongFailsTheWaiter() async throws {
        let turns = MarkSyncZoneTurns(deadline: .milliseconds(200))
        let (entered, enteredFeed) = AsyncStream<Void>.makeStream()
        let (gate, opener) = AsyncStream<Void>.makeStream()
        // Given a caller holding zone z's turn until the gate opens, as one stuck on the database would
        let holder = Task {
            try await turns.inTurn(for: Self.zone("z")) {
                enteredFeed.yield()
                for await _ in gate { break }
            }
        }
        for await _ in entered { break }
        // When another caller of z waits for its turn
        let waiter = await #expect(throws: ServerError.self) { try await turns.inTurn(for: Self.zone("z")) {} }
        // Then it fails as unavailable, which a client is answered 503 with a retryAfter; and once
        // the holder is done, z's next caller runs
        guard case .unavailable(_, let retryAfter)? = waiter?.answer else { Issue.record("not unavailable: \(String(describing: waiter))"); return }
        #expect(retryAfter > 0)
        opener.yield()
        try await holder.value
        #expect(try await turns.inTurn(for: Self.zone("z")) { "z ran" } == "z ran")
    }
}

/// How many callers are inside at once, the most seen, and how many ran.
private final class Occupancy: Sendable {
    let state = Mutex((now: 0, most: 0, ran: 0))
}
