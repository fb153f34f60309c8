/// A zone ID dictionary: `{"zoneName": …, "ownerRecordName": …}`.
public struct MarkSyncZoneID: Codable, Sendable, Hashable {
    /// The name of the database's default zone.
    public static let defaultZoneName = "_defaultZone"

    /// The zone's name, unique within a database.
    public var zoneName: String
    /// The owner's user record name; the current user when absent.
    public var ownerRecordName: String?

    /// Creates a zone ID.
    public init(zoneName: String, ownerRecordName: String? = nil) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    private enum CodingKeys: String, CodingKey { case zoneName, ownerRecordName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneName = try container.decodeIfPresent(String.self, forKey: .zoneName) ?? Self.defaultZoneName
        ownerRecordName = try container.decodeIfPresent(String.self, forKey: .ownerRecordName)
    }
}
