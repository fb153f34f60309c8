/// The body of `records/modify`.
public struct MarkSyncRecordsModifyRequest: Codable, Sendable, Hashable {
    /// One record operation.
    public struct Operation: Codable, Sendable, Hashable {
        /// The operation types and their change-tag rules.
        public enum OperationType: String, Codable, Sendable, Hashable, CaseIterable {
            case create
            case update
            case forceUpdate
            case replace
            case forceReplace
            case delete
            case forceDelete

            /// Whether the operation must carry the record's current change tag.
            public var requiresChangeTag: Bool {
                self == .update || self == .replace || self == .delete
            }
        }

        /// What to do.
        public var operationType: OperationType
        /// The record to act on.
        public var record: MarkSyncRecord
        /// The fields to return for this operation; all when absent.
        public var desiredKeys: [String]?

        /// Creates a record operation.
        public init(_ operationType: OperationType, record: MarkSyncRecord, desiredKeys: [String]? = nil) {
            self.operationType = operationType
            self.record = record
            self.desiredKeys = desiredKeys
        }
    }

    /// The operations, applied in order; one per record.
    public var operations: [Operation]
    /// The zone; the default zone when absent.
    public var zoneID: MarkSyncZoneID?
    /// Whether one failing operation fails them all (default true).
    public var atomic: Bool?
    /// The fields to return; all when absent.
    public var desiredKeys: [String]?
    /// Accepted for compatibility; numbers are always numbers.
    public var numbersAsStrings: Bool?

    /// Creates the request.
    public init(operations: [Operation], zoneID: MarkSyncZoneID? = nil, atomic: Bool? = nil, desiredKeys: [String]? = nil) {
        self.operations = operations
        self.zoneID = zoneID
        self.atomic = atomic
        self.desiredKeys = desiredKeys
    }
}

/// The body of `records/lookup`.
public struct MarkSyncRecordsLookupRequest: Codable, Sendable, Hashable {
    /// One record to look up.
    public struct Lookup: Codable, Sendable, Hashable {
        /// The record's name.
        public var recordName: String
        /// The fields to return for this record; all when absent.
        public var desiredKeys: [String]?

        /// Creates a lookup entry.
        public init(recordName: String, desiredKeys: [String]? = nil) {
            self.recordName = recordName
            self.desiredKeys = desiredKeys
        }
    }

    /// The records to look up.
    public var records: [Lookup]
    /// The zone; the default zone when absent.
    public var zoneID: MarkSyncZoneID?
    /// The fields to return; all when absent.
    public var desiredKeys: [String]?
    /// Accepted for compatibility; numbers are always numbers.
    public var numbersAsStrings: Bool?

    /// Creates the request.
    public init(records: [Lookup], zoneID: MarkSyncZoneID? = nil, desiredKeys: [String]? = nil) {
        self.records = records
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
    }
}

/// The answer of `records/modify` and `records/lookup`: `{"records": […]}`, one entry per
/// operation or requested record, in order.
public struct MarkSyncRecordsResponse: Codable, Sendable, Hashable {
    /// The results.
    public var records: [MarkSyncRecordResult]

    /// Creates the response.
    public init(records: [MarkSyncRecordResult]) {
        self.records = records
    }
}
