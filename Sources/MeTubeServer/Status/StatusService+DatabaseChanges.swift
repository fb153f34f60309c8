import MeTubeAPI

extension StatusService {
    /// `changes/database`: the zones of the caller's database created, changed or deleted since
    /// the request's sync token (every zone without one), oldest change first, at most
    /// `resultsLimit` of them, with `moreComing` and the token to continue from.
    public func databaseChanges(_ request: StatusDatabaseChangesRequest, caller: StatusCaller) async throws -> StatusDatabaseChangesResponse {
        let maximum = configuration.maxRecordsPerResponse
        if let limit = request.resultsLimit, limit < 1 {
            throw StatusErrorBody(.badRequest, "resultsLimit must be at least 1, not \(limit)")
        }
        let limit = min(request.resultsLimit ?? maximum, maximum)
        return try await readingTransaction { transaction in
            let latest = try transaction.databaseChangePosition(caller.database)
            var after: Int64 = 0
            if let token = request.syncToken {
                guard let position = StatusVersionTokens.position(ofDatabaseToken: token), position <= latest else {
                    throw StatusErrorBody(.badRequest, "syncToken is not a database sync token of this server; fetch again without a syncToken")
                }
                after = position
            }
            var changes = try transaction.zoneChanges(in: caller.database, after: after, includeDeleted: request.syncToken != nil, limit: limit + 1)
            let moreComing = changes.count > limit
            if moreComing { changes.removeLast(changes.count - limit) }
            let zones = changes.map { change in
                let zoneID = StatusZoneID(zoneName: change.zone.key.zoneName, ownerRecordName: caller.user.recordName)
                return change.isDeleted
                    ? StatusChangedZone(zoneID: zoneID, deleted: true)
                    : StatusChangedZone(zoneID: zoneID, syncToken: StatusVersionTokens.syncToken(zone: change.zone, sequence: change.zone.lastSequence), atomic: true)
            }
            let position = moreComing ? changes.last?.position ?? after : latest
            return StatusDatabaseChangesResponse(zones: zones, syncToken: StatusVersionTokens.databaseToken(position: position), moreComing: moreComing)
        }
    }
}
