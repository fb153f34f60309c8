import MeTubeAPI

/// The opaque strings that name positions in a zone: record change tags and zone sync tokens.
///
/// Both carry the zone's incarnation, so a tag or token from a deleted zone never matches a
/// zone created later under the same name.
enum MarkSyncVersionTokens {
    /// The change tag of the record version written at `sequence`.
    static func changeTag(zone: StoredMarkSyncZone, sequence: Int64) -> String {
        String(zone.incarnation, radix: 36) + "-" + String(sequence, radix: 36)
    }

    /// The sync token for the position `sequence` of `zone`.
    static func syncToken(zone: StoredMarkSyncZone, sequence: Int64) -> String {
        "S" + changeTag(zone: zone, sequence: sequence)
    }

    /// The position named by `token` in `zone`, or an error saying why it names none.
    static func sequence(ofSyncToken token: String, in zone: StoredMarkSyncZone) -> Result<Int64, MarkSyncZoneError> {
        let zoneID = MarkSyncZoneID(zoneName: zone.key.zoneName)
        guard let parsed = parse(syncToken: token) else {
            return .failure(MarkSyncZoneError(zoneID: zoneID, .badRequest, "syncToken '\(token)' is not a sync token of this server"))
        }
        guard parsed.incarnation == zone.incarnation, parsed.sequence <= zone.lastSequence else {
            return .failure(MarkSyncZoneError(zoneID: zoneID, .badRequest, "syncToken '\(token)' belongs to an earlier zone of this name; fetch again without a syncToken"))
        }
        return .success(parsed.sequence)
    }

    /// The position `token` names, not yet checked against its zone (which
    /// ``sequence(ofSyncToken:in:)`` does), or nil when it is not a sync token of this server.
    static func uncheckedSequence(ofSyncToken token: String) -> Int64? {
        parse(syncToken: token)?.sequence
    }

    /// The zone incarnation and position a sync token names.
    private static func parse(syncToken token: String) -> (incarnation: Int64, sequence: Int64)? {
        let parts = token.dropFirst().split(separator: "-")
        guard token.hasPrefix("S"), parts.count == 2,
              let incarnation = Int64(parts[0], radix: 36), let sequence = Int64(parts[1], radix: 36), sequence >= 0 else { return nil }
        return (incarnation, sequence)
    }

    /// The database sync token for the position `position` of a database's change history.
    static func databaseToken(position: Int64) -> String {
        "D" + String(position, radix: 36)
    }

    /// The position named by a database sync token, or nil when `token` is not one.
    static func position(ofDatabaseToken token: String) -> Int64? {
        guard token.hasPrefix("D"), token.utf8.count <= 16, let position = Int64(token.dropFirst(), radix: 36), position >= 0 else { return nil }
        return position
    }

    /// The continuation marker of a query page that ends after `offset` matches, for the zone
    /// it was read from (matches may shift when records change between pages).
    static func queryMarker(offset: Int, zone: StoredMarkSyncZone) -> String {
        "Q" + String(offset, radix: 36) + "-" + String(zone.incarnation, radix: 36)
    }

    /// The offset named by a query continuation marker for `zone`, or an error when the marker is
    /// not one or belongs to an earlier zone of the same name.
    static func offset(ofQueryMarker marker: String, in zone: StoredMarkSyncZone) throws(MarkSyncErrorBody) -> Int {
        let parts = marker.dropFirst().split(separator: "-", maxSplits: 1)
        guard marker.hasPrefix("Q"), marker.utf8.count <= 64, parts.count == 2, let offset = Int(parts[0], radix: 36), offset >= 0 else {
            throw MarkSyncErrorBody(.badRequest, "continuationMarker is not a marker of this server")
        }
        guard parts[1] == String(zone.incarnation, radix: 36) else {
            throw MarkSyncErrorBody(.badRequest, "continuationMarker belongs to an earlier zone of this name; query again without it")
        }
        return offset
    }
}
