import MeTubeAPI

extension MarkSyncService {
    /// `changes/zone`: for each requested zone, the records changed since its sync token (all
    /// live records without one), oldest change first, with `moreComing` and the token to continue
    /// from. A zone named twice with the same token is answered once; a response holds at most
    /// `maxRecordsPerResponse` records in total, each zone at most its `resultsLimit`, so a zone
    /// past the budget gets no records, its own token back and `moreComing`.
    public func zoneChanges(_ request: MarkSyncZoneChangesRequest, caller: MarkSyncCaller) async throws -> MarkSyncZoneChangesResponse {
        try checkCount(request.zones.count, of: "zones")
        let maximum = configuration.maxRecordsPerResponse
        for limit in [request.resultsLimit] + request.zones.map(\.resultsLimit) {
            if let limit, limit < 1 { throw MarkSyncErrorBody(.badRequest, "resultsLimit must be at least 1, not \(limit)") }
        }
        var seen: Set<[String?]> = []
        let zones = request.zones.filter { seen.insert([$0.zoneID.zoneName, $0.zoneID.ownerRecordName, $0.syncToken]).inserted }
        // One transaction a zone: its token and its changes are read from one state of it.
        var budget = maximum
        var results: [MarkSyncZoneChangesResult] = []
        for wanted in zones {
            if let error = accessError(for: wanted.zoneID, caller: caller) {
                results.append(.failure(error))
                continue
            }
            let key = MarkSyncZoneKey(database: caller.database, zoneName: wanted.zoneID.zoneName)
            let after = wanted.syncToken.flatMap(MarkSyncVersionTokens.uncheckedSequence(ofSyncToken:)) ?? 0
            let limit = min(wanted.resultsLimit ?? request.resultsLimit ?? maximum, budget)
            let selection: MarkSyncRecordSelection = limit > 0 ? .changed(after: after, includeDeleted: wanted.syncToken != nil, limit: limit + 1) : .none
            guard let found = try await storedZone(key, records: selection, caller: caller) else {
                results.append(.failure(zoneNotFound(wanted.zoneID)))
                continue
            }
            let zone = found.zone
            if let token = wanted.syncToken, case .failure(let error) = MarkSyncVersionTokens.sequence(ofSyncToken: token, in: zone) {
                results.append(.failure(error))
                continue
            }
            var changed = found.records
            let moreComing = limit > 0 ? changed.count > limit : zone.lastSequence > after
            if changed.count > limit { changed.removeLast(changed.count - limit) }
            budget -= changed.count
            let position = moreComing ? changed.last?.sequence ?? after : zone.lastSequence
            let types = (wanted.desiredRecordTypes ?? request.desiredRecordTypes).map(Set.init)
            let keys = wanted.desiredKeys ?? request.desiredKeys
            let records = changed
                .filter { $0.isDeleted || types?.contains($0.type) ?? true }
                .map { recordDictionary($0, zone: zone, caller: caller, desiredKeys: keys) }
            results.append(.success(MarkSyncZoneChanges(
                zoneID: MarkSyncZoneID(zoneName: zone.key.zoneName, ownerRecordName: caller.user.recordName),
                records: records,
                syncToken: MarkSyncVersionTokens.syncToken(zone: zone, sequence: position),
                moreComing: moreComing)))
        }
        return MarkSyncZoneChangesResponse(zones: results)
    }
}
