/// `records/query`: `{"zoneID"?, "resultsLimit"?, "query", "continuationMarker"?, "desiredKeys"?}`.
public struct MarkSyncRecordsQueryRequest: Codable, Sendable, Hashable {
    /// One predicate of `filterBy`: `{"comparator", "fieldName", "fieldValue"}`.
    public struct Filter: Codable, Sendable, Hashable {
        /// `EQUALS`, `NOT_EQUALS`, `LESS_THAN`, `GREATER_THAN` or `IN` (the served subset).
        public var comparator: String
        /// The field compared.
        public var fieldName: String
        /// The value compared with; a list for `IN`.
        public var fieldValue: MarkSyncField

        /// Creates a predicate.
        public init(comparator: String, fieldName: String, fieldValue: MarkSyncField) {
            self.comparator = comparator
            self.fieldName = fieldName
            self.fieldValue = fieldValue
        }
    }

    /// One sort descriptor of `sortBy`: `{"fieldName", "ascending"?}` (ascending by default).
    public struct Sort: Codable, Sendable, Hashable {
        /// The field sorted by.
        public var fieldName: String
        /// Whether smaller values come first; true when absent.
        public var ascending: Bool?

        /// Creates a sort descriptor.
        public init(fieldName: String, ascending: Bool? = nil) {
            self.fieldName = fieldName
            self.ascending = ascending
        }
    }

    /// The query dictionary: `{"recordType", "filterBy"?, "sortBy"?}`.
    public struct Query: Codable, Sendable, Hashable {
        /// The record type searched; required.
        public var recordType: String
        /// Predicates that must all hold.
        public var filterBy: [Filter]?
        /// The order of the results, first descriptor first.
        public var sortBy: [Sort]?

        /// Creates a query.
        public init(recordType: String, filterBy: [Filter]? = nil, sortBy: [Sort]? = nil) {
            self.recordType = recordType
            self.filterBy = filterBy
            self.sortBy = sortBy
        }
    }

    /// The zone searched; the default zone when absent.
    public var zoneID: MarkSyncZoneID?
    /// At most this many records in the answer (default and cap: 200).
    public var resultsLimit: Int?
    /// The query.
    public var query: Query
    /// Where the previous page ended, as the previous answer gave it.
    public var continuationMarker: String?
    /// Only these fields in the records; all when absent.
    public var desiredKeys: [String]?

    /// Creates a query request.
    public init(query: Query, zoneID: MarkSyncZoneID? = nil, resultsLimit: Int? = nil, continuationMarker: String? = nil, desiredKeys: [String]? = nil) {
        self.query = query
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
        self.desiredKeys = desiredKeys
    }
}

/// The answer to `records/query`: `{"records", "continuationMarker"?}`; a marker means more
/// records match.
public struct MarkSyncRecordsQueryResponse: Codable, Sendable, Hashable {
    /// The matching records of this page, in order.
    public var records: [MarkSyncRecord]
    /// Pass this back to get the next page; absent on the last page.
    public var continuationMarker: String?

    /// Creates a query answer.
    public init(records: [MarkSyncRecord], continuationMarker: String? = nil) {
        self.records = records
        self.continuationMarker = continuationMarker
    }
}

/// `changes/database`: `{"syncToken"?, "resultsLimit"?}`.
public struct MarkSyncDatabaseChangesRequest: Codable, Sendable, Hashable {
    /// The position in the database's change history to continue from; every zone when absent.
    public var syncToken: String?
    /// At most this many zones in the answer (default and cap: 200).
    public var resultsLimit: Int?

    /// Creates a database changes request.
    public init(syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }
}

/// A zone in a `changes/database` answer: a zone dictionary, with `deleted: true` for a zone
/// deleted since the token.
public struct MarkSyncChangedZone: Codable, Sendable, Hashable {
    /// The zone.
    public var zoneID: MarkSyncZoneID
    /// The zone's current sync token (absent for a deleted zone).
    public var syncToken: String?
    /// Whether the zone supports atomic operations.
    public var atomic: Bool?
    /// True when the zone has been deleted.
    public var deleted: Bool?

    /// Creates a changed-zone entry.
    public init(zoneID: MarkSyncZoneID, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.deleted = deleted
    }
}

/// The answer to `changes/database`: `{"zones", "syncToken", "moreComing"}`.
public struct MarkSyncDatabaseChangesResponse: Codable, Sendable, Hashable {
    /// The zones changed since the request's token, oldest change first.
    public var zones: [MarkSyncChangedZone]
    /// The position to continue from.
    public var syncToken: String
    /// Whether more changed zones follow; ask again with `syncToken` until false.
    public var moreComing: Bool

    /// Creates a database changes answer.
    public init(zones: [MarkSyncChangedZone], syncToken: String, moreComing: Bool) {
        self.zones = zones
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// The answer to `users/caller`: the user identity dictionary `{"userRecordName"}`.
public struct MarkSyncUserIdentity: Codable, Sendable, Hashable {
    /// The caller's user record name.
    public var userRecordName: String

    /// Creates a user identity.
    public init(userRecordName: String) {
        self.userRecordName = userRecordName
    }
}
