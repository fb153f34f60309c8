import MeTubeAPI

/// A `changes/zone` answer decoded record by record, so that one record with a field of the
/// wrong type or range never fails the page: a record whose `created` or `modified` stamp cannot
/// be read (a timestamp beyond 64 bits, say) is read without them (the sync does not use them);
/// one whose fields cannot be read is kept as its bare record name (or nothing), which the pull
/// then counts as dropped.
struct ScreenedZoneChangesResponse: Decodable, Sendable {
    /// The answer with every record readable.
    let response: MarkSyncZoneChangesResponse

    private enum Keys: String, CodingKey { case zones }

    init(from decoder: any Decoder) throws {
        let zones = try decoder.container(keyedBy: Keys.self).decode([MarkSyncZoneOutcome<LenientZoneChanges>].self, forKey: .zones)
        response = MarkSyncZoneChangesResponse(zones: zones.map { outcome in
            switch outcome {
            case .success(let lenient): .success(lenient.changes)
            case .failure(let error): .failure(error)
            }
        })
    }
}

/// One zone's changes, each record decoded on its own.
private struct LenientZoneChanges: Codable, Sendable, Hashable {
    let changes: MarkSyncZoneChanges

    private enum Keys: String, CodingKey { case zoneID, records, syncToken, moreComing }
    private enum RecordKeys: String, CodingKey { case recordName, recordType, recordChangeTag, fields, deleted }

    /// A record; without its stamps when they cannot be read; its bare name when its fields
    /// cannot be read either.
    private struct LenientRecord: Decodable {
        let record: MarkSyncRecord

        init(from decoder: any Decoder) {
            if let full = try? MarkSyncRecord(from: decoder) {
                record = full
                return
            }
            let container = try? decoder.container(keyedBy: RecordKeys.self)
            let name = try? container?.decode(String.self, forKey: .recordName)
            guard let fields = try? container?.decode([String: MarkSyncField].self, forKey: .fields) else {
                record = MarkSyncRecord(recordName: name)
                return
            }
            record = MarkSyncRecord(
                recordName: name, recordType: try? container?.decode(String.self, forKey: .recordType),
                recordChangeTag: try? container?.decode(String.self, forKey: .recordChangeTag), fields: fields,
                deleted: try? container?.decode(Bool.self, forKey: .deleted))
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .records)
        var records: [MarkSyncRecord] = []
        while !list.isAtEnd { records.append(try list.decode(LenientRecord.self).record) }
        changes = MarkSyncZoneChanges(
            zoneID: try container.decode(MarkSyncZoneID.self, forKey: .zoneID), records: records,
            syncToken: try container.decode(String.self, forKey: .syncToken), moreComing: try container.decode(Bool.self, forKey: .moreComing))
    }

    func encode(to encoder: any Encoder) throws {
        try changes.encode(to: encoder)
    }
}
