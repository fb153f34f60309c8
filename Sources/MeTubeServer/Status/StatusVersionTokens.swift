import MeTubeAPI

/// The opaque strings that name positions in a zone: record change tags and zone sync tokens.
///
/// Both carry the zone's incarnation, so a tag or token from a deleted zone never matches a
/// zone created later under the same name.
enum StatusVersionTokens {
    /// The change tag of the record version written at `sequence`.
    static func changeTag(zone: StoredStatusZone, sequence: Int64) -> String {
        String(zone.incarnation, radix: 36) + "-" + String(sequence, radix: 36)
    }

    /// The sync token for the position `sequence` of `zone`.
    static func syncToken(zone: StoredStatusZone, sequence: Int64) -> String {
        "S" + changeTag(zone: zone, sequence: sequence)
    }

    /// The position named by `token` in `zone`, or an error saying why it names none.
    static func sequence(ofSyncToken token: String, in zone: StoredStatusZone) -> Result<Int64, StatusZoneError> {
        let zoneID = StatusZoneID(zoneName: zone.key.zoneName)
        let parts = token.dropFirst().split(separator: "-")
        guard token.hasPrefix("S"), parts.count == 2,
              let incarnation = Int64(parts[0], radix: 36), let sequence = Int64(parts[1], radix: 36), sequence >= 0 else {
            return .failure(StatusZoneError(zoneID: zoneID, .badRequest, "syncToken '\(token)' is not a sync token of this server"))
        }
        guard incarnation == zone.incarnation, sequence <= zone.lastSequence else {
            return .failure(StatusZoneError(zoneID: zoneID, .badRequest, "syncToken '\(token)' belongs to an earlier zone of this name; fetch again without a syncToken"))
        }
        return .success(sequence)
    }
}
