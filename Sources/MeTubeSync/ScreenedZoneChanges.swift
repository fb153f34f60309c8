import MeTubeAPI

/// A `changes/zone` answer decoded record by record, so that one record with a field of the
/// wrong type or range (a `modified.timestamp` beyond 64 bits, say) never fails the page: such a
/// record is kept as its bare record name (or nothing), which the pull then counts as dropped.
struct ScreenedZoneChangesResponse: Decodable, Sendable {
    /// The answer with every record readable.
    let response: StatusZoneChangesResponse

    private enum Keys: String, CodingKey { case zones }

    init(from decoder: any Decoder) throws {
        let zones = try decoder.container(keyedBy: Keys.self).decode([StatusZoneOutcome<LenientZoneChanges>].self, forKey: .zones)
        response = StatusZoneChangesResponse(zones: zones.map { outcome in
            switch outcome {
            case .success(let lenient): .success(lenient.changes)
            case .failure(let error): .failure(error)
            }
        })
    }
}

/// One zone's changes, each record decoded on its own.
private struct LenientZoneChanges: Codable, Sendable, Hashable {
    let changes: StatusZoneChanges

    private enum Keys: String, CodingKey { case zoneID, records, syncToken, moreComing }
    private enum NameKey: String, CodingKey { case recordName }

    /// A record, or its bare name when the whole record cannot be read.
    private struct LenientRecord: Decodable {
        let record: StatusRecord

        init(from decoder: any Decoder) {
            if let full = try? StatusRecord(from: decoder) {
                record = full
            } else {
                let name = try? decoder.container(keyedBy: NameKey.self).decode(String.self, forKey: .recordName)
                record = StatusRecord(recordName: name)
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .records)
        var records: [StatusRecord] = []
        while !list.isAtEnd { records.append(try list.decode(LenientRecord.self).record) }
        changes = StatusZoneChanges(
            zoneID: try container.decode(StatusZoneID.self, forKey: .zoneID), records: records,
            syncToken: try container.decode(String.self, forKey: .syncToken), moreComing: try container.decode(Bool.self, forKey: .moreComing))
    }

    func encode(to encoder: any Encoder) throws {
        try changes.encode(to: encoder)
    }
}
