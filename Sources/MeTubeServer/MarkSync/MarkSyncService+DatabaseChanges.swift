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
        let after: Int64 = try request.syncToken.map { token in
            guard let position = MarkSyncVersionTokens.position(ofDatabaseToken: token) else { throw Self.foreignDatabaseToken }
            return position
        } ?? 0
        var (latest, changes) = try await repository.zoneChanges(in: caller.database, after: after, includeDeleted: request.syncToken != nil, limit: limit + 1)
        guard after <= latest else { throw Self.foreignDatabaseToken }
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

    /// A database sync token this server did not give, or that names a position past the
    /// database's latest.
    private static let foreignDatabaseToken = MarkSyncErrorBody(.badRequest, "syncToken is not a database sync token of this server; fetch again without a syncToken")
}
