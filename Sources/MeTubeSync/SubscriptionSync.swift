import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeTransfer

/// One device's subscription sync, run by ``MarkSync`` after the marks: pushes pending follows,
/// unfollows and tags as `Subscription` records of their own zone, merging each one the server
/// already holds (``Subscription/merged(onto:)``) and pushing the merge again, then pulls the
/// zone's changes page by page, saving each page with its token.
struct SubscriptionSync: Sendable {
    let client: MarkSyncClient
    let store: any SubscriptionStore
    let batchSize: Int
    let logger: Logger
    let zoneID = MarkSyncZoneID(zoneName: SubscriptionRecord.zoneName)

    /// How many times one run pushes subscriptions that a merge left pending again.
    private static let pushRounds = 3

    /// Pushes, then pulls; throws the first failure that stops the run (what was saved stays).
    func run() async throws -> MarkSync.Report {
        var report = MarkSync.Report()
        for _ in 0..<Self.pushRounds {
            let round = try await push()
            report.add(round)
            if round.rebased == 0 { break }
        }
        report.rebased = 0
        try await pull(into: &report)
        return report
    }

    /// Pushes every pending subscription once, in batches with a few in flight at once as the
    /// marks are (batches hold different channels, so their order does not matter); counts in
    /// `rebased` those a merge left pending for another round.
    private func push() async throws -> MarkSync.Report {
        let pending = try store.pendingSubscriptions()
        let batches = stride(from: 0, to: pending.count, by: batchSize).map { Array(pending[$0..<min($0 + batchSize, pending.count)]) }
        return try await MarkSync.Report.pipelined(batches, inFlight: MarkSync.concurrentPushes) { batch in try await push(batch) }
    }

    /// Pushes one batch, halving it while the server says it is too large, and saves the outcome.
    private func push(_ batch: [Subscription]) async throws -> MarkSync.Report {
        let request = MarkSyncRecordsModifyRequest(operations: batch.map(Self.operation), zoneID: zoneID, atomic: false)
        let response: MarkSyncRecordsResponse
        do {
            response = try await client.modifyEnsuringZone(request)
        } catch let failure as MarkSyncRequestFailure {
            guard case .server(let body, _) = failure, body.isLimitExceeded || body.serverErrorCode == .quotaExceeded, batch.count > 1 else { throw failure }
            var halves = try await push(Array(batch[..<(batch.count / 2)]))
            halves.add(try await push(Array(batch[(batch.count / 2)...])))
            return halves
        }
        var notes: [String] = []
        var outcome = MarkSync.Report()
        let observed = response.records.compactMap { result -> HybridTimestamp? in
            guard case .failure(let error) = result, let record = error.serverRecord else { return nil }
            return PeerSubscription.version(of: record, notes: &notes)?.hlc
        }.max()
        try store.reconcileSubscriptions(channelIDs: batch.map(\.channelID), syncToken: nil, observed: observed) { current in
            outcome = MarkSync.Report()
            var notes: [String] = []
            return zip(batch, response.records).compactMap { pushed, result in
                guard let now = current[pushed.channelID] else { return nil }
                switch result {
                case .success(let record):
                    guard let tag = record.recordChangeTag, (1...PeerInput.maxNameBytes).contains(tag.utf8.count) else { return nil }
                    var saved = now
                    saved.base = SubscriptionVersion(changeTag: tag, followed: pushed.followed, tags: pushed.tags, title: pushed.title,
                                                     hlc: pushed.hlc, deviceID: pushed.deviceID)
                    saved.syncState = saved.holds(saved.base!) ? .synced : .pending
                    outcome.subscriptionsPushed += 1
                    return saved
                case .failure(let error) where error.serverErrorCode == .conflict || error.serverErrorCode == .exists:
                    guard let server = error.serverRecord.flatMap({ PeerSubscription.version(of: $0, notes: &notes) }) else {
                        outcome.deferred += 1
                        return nil
                    }
                    let merged = now.merged(onto: server)
                    outcome.subscriptionsMerged += 1
                    if merged.syncState == .pending { outcome.rebased += 1 }
                    return merged
                case .failure:
                    outcome.deferred += 1
                    return nil
                }
            }
        }
        for case .failure(let error) in response.records where error.serverErrorCode != .conflict && error.serverErrorCode != .exists {
            logger.warning("subscription push of \(error.recordName ?? "?") deferred: \(error.serverErrorCode.rawValue) \(error.reason)")
        }
        return outcome
    }

    /// The `records/modify` operation that pushes `subscription`: an `update` on the version it
    /// was based on, or a `create`.
    static func operation(for subscription: Subscription) -> MarkSyncRecordsModifyRequest.Operation {
        let record = SubscriptionRecord(channelID: subscription.channelID, title: subscription.title, followed: subscription.followed,
                                        tags: subscription.tags, lastModified: subscription.hlc.millis,
                                        hlc: subscription.hlc.description, deviceID: subscription.deviceID)
        guard let tag = subscription.base?.changeTag else { return .init(.create, record: record.record()) }
        return .init(.update, record: record.record(changeTag: tag))
    }
}
