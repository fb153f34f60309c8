import MeTubeAPI

extension MarkSyncService {
    /// `records/query`: the live records of the query's type in the zone that match every
    /// predicate, in the query's order, at most `resultsLimit` a page, with a
    /// `continuationMarker` while more match.
    public func queryRecords(_ request: MarkSyncRecordsQueryRequest, caller: MarkSyncCaller) async throws -> MarkSyncRecordsQueryResponse {
        let maximum = configuration.maxRecordsPerResponse
        if let limit = request.resultsLimit, limit < 1 {
            throw MarkSyncErrorBody(.badRequest, "resultsLimit must be at least 1, not \(limit)")
        }
        let recordType = request.query.recordType
        guard !recordType.isEmpty else { throw MarkSyncErrorBody(.badRequest, "query.recordType must not be empty") }
        if let error = Self.nameError(recordType, of: "query.recordType") { throw MarkSyncErrorBody(.badRequest, error) }
        let plan = try MarkSyncQueryPlan(request.query)
        let limit = min(request.resultsLimit ?? maximum, maximum)
        let zoneID = request.zoneID ?? MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)
        let (zone, records) = try await requireZone(zoneID, records: .ofType(recordType), caller: caller)
        let offset = try request.continuationMarker.map { marker throws(MarkSyncErrorBody) in
            try MarkSyncVersionTokens.offset(ofQueryMarker: marker, in: zone)
        } ?? 0
        let matches = plan.apply(to: records)
        let page = matches.dropFirst(offset).prefix(limit)
        let end = offset + page.count
        return MarkSyncRecordsQueryResponse(
            records: page.map { recordDictionary($0, zone: zone, caller: caller, desiredKeys: request.desiredKeys) },
            continuationMarker: end < matches.count ? MarkSyncVersionTokens.queryMarker(offset: end, zone: zone) : nil)
    }

    /// `users/caller`: the caller's user identity.
    public func caller(_ caller: MarkSyncCaller) -> MarkSyncUserIdentity {
        MarkSyncUserIdentity(userRecordName: caller.user.recordName)
    }
}
