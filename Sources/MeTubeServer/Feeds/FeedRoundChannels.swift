/// The channels of one polling round not yet handed to a fetch: taken in order, or, with leases,
/// claimed from them a few at a time, passing over the ones other instances hold.
struct FeedRoundChannels {
    /// The fewest channels offered to one claim (it is offered four times its limit, at least
    /// these): enough that another instance's claims in between rarely settle them all, few
    /// enough that a claim, which reads every channel offered, stays cheap.
    static let smallestOffer = 32

    private var unclaimed: ArraySlice<String>
    private let leases: (any FeedPollLeases)?
    /// Channels of the round left to other instances (or to a later round, when a claim failed).
    private(set) var deferred = 0

    /// The round's `channelIDs`, in the order to fetch them, claimed through `leases` when given.
    init(_ channelIDs: [String], leases: (any FeedPollLeases)?) {
        unclaimed = channelIDs[...]
        self.leases = leases
    }

    /// Up to `limit` channels to fetch now; none once the round's channels are all dealt with.
    mutating func take(_ limit: Int) async -> [String] {
        guard limit > 0 else { return [] }
        guard let leases else {
            defer { unclaimed = unclaimed.dropFirst(limit) }
            return Array(unclaimed.prefix(limit))
        }
        var taken: [String] = []
        while taken.count < limit, !unclaimed.isEmpty {
            let offered = Array(unclaimed.prefix(max(Self.smallestOffer, 4 * limit)))
            guard let claim = await leases.claim(from: offered, limit: limit - taken.count) else {
                deferred += unclaimed.count
                unclaimed = []
                break
            }
            let settled = min(max(claim.settled, 1), offered.count)
            taken += claim.channelIDs
            deferred += settled - claim.channelIDs.count
            unclaimed = unclaimed.dropFirst(settled)
        }
        return taken
    }
}
