import MeTubeAPI

extension MarkSyncClient {
    /// Creates the zone `zoneID` (idempotently on the server).
    func ensureZone(_ zoneID: MarkSyncZoneID) async throws {
        let response = try await modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]))
        if case .failure(let error) = response.zones.first {
            throw MarkSyncRequestFailure.zone(error)
        }
    }

    /// Sends `request`, creating its zone and retrying once when the server does not have it.
    func modifyEnsuringZone(_ request: MarkSyncRecordsModifyRequest) async throws -> MarkSyncRecordsResponse {
        let failure: MarkSyncRequestFailure
        do {
            return try await modifyRecords(request)
        } catch {
            failure = error
        }
        guard case .server(let body, _) = failure, body.serverErrorCode == .zoneNotFound else { throw failure }
        try await ensureZone(request.zoneID ?? MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName))
        return try await modifyRecords(request)
    }
}
