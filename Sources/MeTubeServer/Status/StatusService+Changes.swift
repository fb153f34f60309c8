import MeTubeAPI

extension StatusService {
    /// `changes/zone`: for each requested zone, the records changed since its sync token (all
    /// live records without one), oldest change first, at most `resultsLimit` per zone, with
    /// `moreComing` and the token to continue from.
    public func zoneChanges(_ request: StatusZoneChangesRequest, caller: StatusCaller) async throws -> StatusZoneChangesResponse {
        try checkCount(request.zones.count, of: "zones")
        let maximum = configuration.maxRecordsPerResponse
        for limit in [request.resultsLimit] + request.zones.map(\.resultsLimit) {
            if let limit, limit < 1 { throw StatusErrorBody(.badRequest, "resultsLimit must be at least 1, not \(limit)") }
        }
        let results = try await repository.transaction { transaction in
            try request.zones.map { wanted -> StatusZoneChangesResult in
                if let error = accessError(for: wanted.zoneID, caller: caller) { return .failure(error) }
                let key = StatusZoneKey(database: caller.database, zoneName: wanted.zoneID.zoneName)
                guard let zone = try existingZone(key, in: transaction) else { return .failure(zoneNotFound(wanted.zoneID)) }
                var after: Int64 = 0
                if let token = wanted.syncToken {
                    switch StatusVersionTokens.sequence(ofSyncToken: token, in: zone) {
                    case .success(let sequence): after = sequence
                    case .failure(let error): return .failure(error)
                    }
                }
                let limit = min(wanted.resultsLimit ?? request.resultsLimit ?? maximum, maximum)
                var changed = try transaction.changes(in: key, after: after, includeDeleted: wanted.syncToken != nil, limit: limit + 1)
                let moreComing = changed.count > limit
                if moreComing { changed.removeLast(changed.count - limit) }
                let position = moreComing ? changed.last?.sequence ?? after : zone.lastSequence
                let types = (wanted.desiredRecordTypes ?? request.desiredRecordTypes).map(Set.init)
                let keys = wanted.desiredKeys ?? request.desiredKeys
                let records = changed
                    .filter { $0.isDeleted || types?.contains($0.type) ?? true }
                    .map { recordDictionary($0, zone: zone, caller: caller, desiredKeys: keys) }
                return .success(StatusZoneChanges(
                    zoneID: StatusZoneID(zoneName: zone.key.zoneName, ownerRecordName: caller.user.recordName),
                    records: records,
                    syncToken: StatusVersionTokens.syncToken(zone: zone, sequence: position),
                    moreComing: moreComing))
            }
        }
        return StatusZoneChangesResponse(zones: results)
    }
}
