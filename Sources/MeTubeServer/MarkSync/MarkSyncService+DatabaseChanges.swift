import MeTubeAPI

extension MarkSyncService {
    /// `changes/database`: the zones of the caller's database created, changed or deleted since
    /// the request's sync token (every zone without one), oldest change first, at most
    /// `resultsLimit` of them, with `moreComing` and the token to continue from.
    public func databaseChanges(_ request: MarkSyncDatabaseChangesRequest, caller: MarkSyncCaller) async throws -> MarkSyncDatabaseChangesResponse {
        let maximum = configuration.maxRecordsPerResponse
        if let limit = request.resultsLimit, limit < 1 {
            throw MarkSyncErrorBody(.badRequest, "resultsLimit must be at least 1, not \(limit)")
        }
        let limit = min(request.resultsLimit ?? maximum, maximum)
        return try await readingTransaction { transaction in
            let latest = try transaction.databaseChangePosition(caller.database)
            var after: Int64 = 0
            if let token = request.syncToken {
                guard let position = MarkSyncVersionTokens.position(ofDatabaseToken: token), position <= latest else {
                    throw MarkSyncErrorBody(.badRequest, "syncToken is not a database sync token of this server; fetch again without a syncToken")
                }
                after = position
            }
            var changes = try transaction.zoneChanges(in: caller.database, after: after, includeDeleted: request.syncToken != nil, limit: limit + 1)
            let moreComing = changes.count > limit
            if moreComing { changes.removeLast(changes.count - limit) }
            let zones = changes.map { change in
                let zoneID = MarkSyncZoneID(zoneName: change.zone.key.zoneName, ownerRecordName: caller.user.recordName)
                return change.isDeleted
                    ? MarkSyncChangedZone(zoneID: zoneID, deleted: true)
                    : MarkSyncChangedZone(zoneID: zoneID, syncToken: MarkSyncVersionTokens.syncToken(zone: change.zone, sequence: change.zone.lastSequence), atomic: true)
            }
            let position = moreComing ? changes.last?.position ?? after : latest
            return MarkSyncDatabaseChangesResponse(zones: zones, syncToken: MarkSyncVersionTokens.databaseToken(position: position), moreComing: moreComing)
        }
    }
}
