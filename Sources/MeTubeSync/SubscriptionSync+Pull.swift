import MeTubeAPI
import MeTubeCore

extension SubscriptionSync {
    /// Pulls the zone's changes since the saved token page by page, each page saved with its
    /// token, within the bounds of ``MarkSync/checkBounds(_:after:pages:seen:)``. A token the
    /// server refuses is forgotten once (pulling from the beginning).
    func pull(into report: inout MarkSync.Report) async throws {
        var token = try store.subscriptionsSyncToken()
        var restarted = false
        var pages = 0
        var seen: Set<String> = []
        while true {
            let response = try await client.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: batchSize)]))
            switch response.zones.first {
            case .success(let changes)?:
                pages += 1
                try MarkSync.checkBounds(changes, after: token, pages: pages, seen: &seen)
                try apply(changes, into: &report)
                token = changes.syncToken
                if !changes.moreComing { return }
            case .failure(let error)? where error.serverErrorCode == .zoneNotFound:
                try await client.ensureZone(zoneID)
                token = nil
            case .failure(let error)? where error.serverErrorCode == .badRequest && token != nil && !restarted:
                logger.notice("subscriptions sync token refused (\(error.reason)); pulling from the beginning")
                token = nil
                restarted = true
            case .failure(let error)?:
                throw MarkSyncRequestFailure.zone(error)
            case nil:
                throw MarkSyncRequestFailure.noZoneInChanges
            }
        }
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
