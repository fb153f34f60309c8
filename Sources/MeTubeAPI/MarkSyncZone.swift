/// A zone dictionary: `{"zoneID", "syncToken", "atomic"}`.
public struct MarkSyncZone: Codable, Sendable, Hashable {
    /// The zone.
    public var zoneID: MarkSyncZoneID
    /// The zone's current position in its change history.
    public var syncToken: String?
    /// Whether the zone supports atomic operations.
    public var atomic: Bool?

    /// Creates a zone dictionary.
    public init(zoneID: MarkSyncZoneID, syncToken: String? = nil, atomic: Bool? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
    }
}

/// A zone fetch error: `{"zoneID", "serverErrorCode", "reason", "retryAfter"?}`.
public struct MarkSyncZoneError: Error, Codable, Sendable, Hashable {
    /// The zone the error is about.
    public var zoneID: MarkSyncZoneID?
    /// What went wrong.
    public var serverErrorCode: MarkSyncErrorCode
    /// A human-readable reason.
    public var reason: String
    /// Seconds to wait before retrying, when retrying can help.
    public var retryAfter: Double?

    /// Creates a zone error.
    public init(zoneID: MarkSyncZoneID?, _ code: MarkSyncErrorCode, _ reason: String, retryAfter: Double? = nil) {
        self.zoneID = zoneID
        self.serverErrorCode = code
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// Decodes a zone error, refusing a `retryAfter` outside `MarkSyncErrorBody.retryAfterRange`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneID = try container.decodeIfPresent(MarkSyncZoneID.self, forKey: .zoneID)
        serverErrorCode = try container.decode(MarkSyncErrorCode.self, forKey: .serverErrorCode)
        reason = try container.decode(String.self, forKey: .reason)
        retryAfter = try container.decodeNumberIfPresent(forKey: .retryAfter, in: MarkSyncErrorBody.retryAfterRange)
    }
}

/// One entry of a `zones` array in a response: what was asked for about the zone, or the zone's
/// error. An entry with a `serverErrorCode` is an error.
public enum MarkSyncZoneOutcome<Success: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    case success(Success)
    case failure(MarkSyncZoneError)

    private enum Probe: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: Probe.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try MarkSyncZoneError(from: decoder))
        } else {
            self = .success(try Success(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .success(let value): try value.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }
}

/// One entry of a `zones` array in a zone response: a zone, or the error for it.
public typealias MarkSyncZoneResult = MarkSyncZoneOutcome<MarkSyncZone>
