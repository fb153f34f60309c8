import MeTubeAPI
import MeTubeCore

extension SubscriptionSync {
    /// Pulls the zone's changes since the saved token (``ZoneChangesPull``), each page saved with
    /// its token.
    func pull(into report: inout MarkSync.Report) async throws {
        let pull = ZoneChangesPull(client: client, zoneID: zoneID, batchSize: batchSize, label: "subscriptions", logger: logger)
        _ = try await pull.run(from: try store.subscriptionsSyncToken()) { changes in try apply(changes, into: &report) }
    }

    /// Applies one page: each readable version to the local subscription (adopted when the local
    /// one is synced or absent, merged when it is pending); a deleted record leaves this device's
    /// subscription pending as a new record, so nothing is lost. Unusable records are dropped,
    /// counted and logged.
    private func apply(_ changes: MarkSyncZoneChanges, into report: inout MarkSync.Report) throws {
        var notes: [String] = []
        var versions: [String: SubscriptionVersion] = [:]
        var deleted: [String] = []
        for record in changes.records {
            if record.deleted == true {
                if let name = record.recordName, ChannelID.isValid(name) { deleted.append(name) } else { report.dropped += 1 }
            } else if let version = PeerSubscription.version(of: record, notes: &notes) {
                versions[record.recordName!] = version
            } else {
                report.dropped += 1
            }
        }
        for note in notes.prefix(20) { logger.warning("subscriptions pull: \(note)") }
        var merged = 0
        try store.reconcileSubscriptions(
            channelIDs: Array(versions.keys) + deleted, syncToken: changes.syncToken, observed: versions.values.map(\.hlc).max()
        ) { current in
            merged = 0
            var updated: [Subscription] = []
            for (channelID, version) in versions {
                guard let local = current[channelID] else {
                    updated.append(Subscription(channelID: channelID, followed: false, hlc: HybridTimestamp(millis: 0), deviceID: "").adopting(version))
                    continue
                }
                if local.base?.changeTag == version.changeTag { continue }
                if local.syncState == .synced {
                    updated.append(local.adopting(version))
                } else {
                    merged += 1
                    updated.append(local.merged(onto: version))
                }
            }
            for channelID in deleted {
                guard var local = current[channelID], local.base != nil else { continue }
                local.base = nil
                local.syncState = .pending
                updated.append(local)
            }
            return updated
        }
        report.subscriptionsPulled += versions.count + deleted.count
        report.subscriptionsMerged += merged
    }
}
