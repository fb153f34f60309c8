import MeTubeAPI

extension StatusClient {
    /// Creates the zone `zoneID` (idempotently on the server).
    func ensureZone(_ zoneID: StatusZoneID) async throws {
        let response = try await modifyZones(StatusZonesModifyRequest(operations: [.init(.create, zone: zoneID)]))
        if case .failure(let error) = response.zones.first {
            throw StatusRequestFailure.server(StatusErrorBody(error.serverErrorCode, error.reason, retryAfter: error.retryAfter), httpStatus: 200)
        }
    }

    /// Sends `request`, creating its zone and retrying once when the server does not have it.
    func modifyEnsuringZone(_ request: StatusRecordsModifyRequest) async throws -> StatusRecordsResponse {
        let failure: StatusRequestFailure
        do {
            return try await modifyRecords(request)
        } catch {
            failure = error
        }
        guard case .server(let body, _) = failure, body.serverErrorCode == .zoneNotFound else { throw failure }
        try await ensureZone(request.zoneID ?? StatusZoneID(zoneName: StatusZoneID.defaultZoneName))
        return try await modifyRecords(request)
    }
}
