/// A per-record error ("Record Fetch Error Dictionary") inside a successful response.
public struct MarkSyncRecordError: Error, Codable, Sendable, Hashable {
    /// The record the operation failed on.
    public var recordName: String?
    /// A human-readable reason.
    public var reason: String
    /// What went wrong.
    public var serverErrorCode: MarkSyncErrorCode
    /// Seconds to wait before retrying; absent when the operation cannot be retried.
    public var retryAfter: Double?
    /// A unique id for this error.
    public var uuid: String?
    /// On `CONFLICT` (and `EXISTS`), the record as the server holds it (metube's extension, as
    /// in native CloudKit's serverRecordChanged).
    public var serverRecord: MarkSyncRecord?

    /// Creates a per-record error with a fresh uuid.
    public init(recordName: String?, _ code: MarkSyncErrorCode, _ reason: String, retryAfter: Double? = nil, serverRecord: MarkSyncRecord? = nil) {
        self.recordName = recordName
        self.reason = reason
        self.serverErrorCode = code
        self.retryAfter = retryAfter
        self.uuid = MarkSyncIdentifier.random()
        self.serverRecord = serverRecord
    }

    /// Decodes a per-record error, refusing a `retryAfter` outside `MarkSyncErrorBody.retryAfterRange`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordName = try container.decodeIfPresent(String.self, forKey: .recordName)
        reason = try container.decode(String.self, forKey: .reason)
        serverErrorCode = try container.decode(MarkSyncErrorCode.self, forKey: .serverErrorCode)
        retryAfter = try container.decodeNumberIfPresent(forKey: .retryAfter, in: MarkSyncErrorBody.retryAfterRange)
        uuid = try container.decodeIfPresent(String.self, forKey: .uuid)
        serverRecord = try container.decodeIfPresent(MarkSyncRecord.self, forKey: .serverRecord)
    }
}

/// One entry of a `records` array in a response: a record, or the error for that operation.
public enum MarkSyncRecordResult: Codable, Sendable, Hashable {
    case success(MarkSyncRecord)
    case failure(MarkSyncRecordError)

    private enum Probe: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: Probe.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try MarkSyncRecordError(from: decoder))
        } else {
            self = .success(try MarkSyncRecord(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .success(let record): try record.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }

    /// The record name the entry is about.
    public var recordName: String? {
        switch self {
        case .success(let record): record.recordName
        case .failure(let error): error.recordName
        }
    }
}
