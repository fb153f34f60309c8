import Foundation
import MeTubeAPI

/// A user of the status service.
public struct MarkSyncUser: Sendable, Hashable {
    /// The repository's id for the user.
    public var id: Int64
    /// The name given at `users add`.
    public var name: String

    /// Creates a user.
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    /// The user's record name, as it appears in `ownerRecordName` and record stamps.
    public var recordName: String { "_" + name }
}

/// One user's private database in one container and environment.
public struct MarkSyncDatabaseKey: Sendable, Hashable {
    /// The owner.
    public var userID: Int64
    /// The container id, e.g. `iCloud.com.metube.app`.
    public var container: String
    /// `development` or `production`.
    public var environment: String

    /// Creates a database key.
    public init(userID: Int64, container: String, environment: String) {
        self.userID = userID
        self.container = container
        self.environment = environment
    }
}

/// One zone of one database.
public struct MarkSyncZoneKey: Sendable, Hashable {
    /// The database holding the zone.
    public var database: MarkSyncDatabaseKey
    /// The zone's name.
    public var zoneName: String

    /// Creates a zone key.
    public init(database: MarkSyncDatabaseKey, zoneName: String) {
        self.database = database
        self.zoneName = zoneName
    }
}

/// A zone as stored: its identity and the position of its change history.
public struct StoredMarkSyncZone: Sendable, Hashable {
    /// The zone.
    public var key: MarkSyncZoneKey
    /// Distinguishes this zone from an earlier zone of the same name, so old tokens and tags
    /// never match.
    public var incarnation: Int64
    /// The sequence number of the zone's latest change; 0 before any.
    public var lastSequence: Int64

    /// Creates a stored zone.
    public init(key: MarkSyncZoneKey, incarnation: Int64, lastSequence: Int64 = 0) {
        self.key = key
        self.incarnation = incarnation
        self.lastSequence = lastSequence
    }
}

/// A record as stored, including deleted records kept as tombstones for `changes/zone`.
public struct StoredMarkSyncRecord: Sendable, Hashable {
    /// The record's name.
    public var name: String
    /// The record's type.
    public var type: String
    /// The record's fields.
    public var fields: [String: MarkSyncField]
    /// The zone sequence number of the record's latest change; it names the version.
    public var sequence: Int64
    /// When it was created, in milliseconds since 1970.
    public var createdMillis: Int64
    /// When it was last changed, in milliseconds since 1970.
    public var modifiedMillis: Int64
    /// Whether this is a tombstone.
    public var isDeleted: Bool
    /// The bytes it counts for against its user's quota (``MarkSyncRecordBytes``): as stored,
    /// for a record read by name; as it will be stored, for a record about to be written.
    public var storedBytes: Int64
    /// The stored form of its fields, when already encoded for writing (the storage encodes
    /// them otherwise).
    public var storedFields: Data?

    /// Creates a stored record.
    public init(
        name: String, type: String, fields: [String: MarkSyncField], sequence: Int64, createdMillis: Int64, modifiedMillis: Int64, isDeleted: Bool = false,
        storedBytes: Int64 = 0, storedFields: Data? = nil
    ) {
        self.name = name
        self.type = type
        self.fields = fields
        self.sequence = sequence
        self.createdMillis = createdMillis
        self.modifiedMillis = modifiedMillis
        self.isDeleted = isDeleted
        self.storedBytes = storedBytes
        self.storedFields = storedFields
    }
}

/// Storage for the status service: users, zones and records.
///
/// The server has two implementations: ``SQLiteMarkSyncRepository`` (a file, or in memory for
/// tests) and ``PostgresMarkSyncRepository``; ``ServerStorage`` opens the one configured.
/// Repositories return domain values and throw ``ServerError/storage(_:)`` for failures of the
/// storage itself.
public protocol MarkSyncRepository: Sendable {
    /// Adds a user with the SHA-256 hex digest of their token; nil when the name is taken.
    func addUser(name: String, tokenHash: String) async throws -> MarkSyncUser?
    /// The user whose token hashes to `tokenHash`, if any.
    func user(tokenHash: String) async throws -> MarkSyncUser?
    /// Notes that the user made an authenticated request at `millis` (for `users list`).
    func recordSeen(userID: Int64, atMillis millis: Int64) async throws
    /// Runs one `records/modify` as one write transaction: reads the zone, the stored records
    /// and the usage that `reads` names, calls `decide` once with what it found, writes what
    /// `decide` returns (nothing for nil) and commits; then returns `decide`'s answer, durable.
    /// The rules are `decide`'s; the repository only reads and writes. Concurrent calls for one
    /// zone decide one after another, each seeing the writes of the ones before.
    func modify<T: Sendable>(
        _ reads: MarkSyncModifyReads, deciding decide: @escaping @Sendable (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)
    ) async throws -> T
    /// Runs `body` as one transaction: it sees its own writes, and nothing it wrote survives
    /// when it throws. Once it returns, what it wrote is durable. `body` may be run more than once
    /// (``PostgresMarkSyncRepository`` runs it again after fetching a read it missed) and only its
    /// last run counts, so it lets the transaction's errors through and changes nothing outside.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any MarkSyncTransaction) throws -> T) async throws -> T
    /// Runs `body` as one read-only transaction (its ``MarkSyncTransaction/isReadOnly`` is true):
    /// it sees one consistent state, and a write in it fails.
    func read<T: Sendable>(_ body: @escaping @Sendable (any MarkSyncTransaction) throws -> T) async throws -> T
}

extension MarkSyncRepository {
    /// Reads in a full transaction.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any MarkSyncTransaction) throws -> T) async throws -> T {
        try await transaction(body)
    }
}

/// The reads and writes available inside a ``MarkSyncRepository`` transaction.
public protocol MarkSyncTransaction {
    /// Whether this is a read-only transaction (``MarkSyncRepository/read(_:)``), where writes fail.
    var isReadOnly: Bool { get }
    /// The zone, if it exists.
    func zone(_ key: MarkSyncZoneKey) throws -> StoredMarkSyncZone?
    /// Up to `limit` zones of `database` whose names sort (bytewise) after `name`, or from the
    /// first when it is nil, in that order.
    func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) throws -> [StoredMarkSyncZone]
    /// Creates or updates a zone.
    func saveZone(_ zone: StoredMarkSyncZone) throws
    /// Deletes a zone and every record in it.
    func deleteZone(_ key: MarkSyncZoneKey) throws
    /// The live records and stored bytes of a zone (its zones count 0).
    func usage(of zone: MarkSyncZoneKey) throws -> MarkSyncUsage
    /// What the user holds and the quota set for them (nothing, and no setting, before any write).
    func usage(ofUser userID: Int64) throws -> MarkSyncUserUsage
    /// Adds `delta` to what the user holds.
    func addUsage(_ delta: MarkSyncUsage, ofUser userID: Int64) throws
    /// The stored records (tombstones included) among `names`, by name, each with its
    /// ``StoredMarkSyncRecord/storedBytes``. A record's fields are read only when `readsFields`
    /// answers true for it (given it without them); otherwise they are left empty.
    func records(
        named names: [String], in zone: MarkSyncZoneKey, readingFieldsWhen readsFields: (StoredMarkSyncRecord) -> Bool
    ) throws -> [String: StoredMarkSyncRecord]
    /// Creates or replaces records (or their tombstones), whose names are all different.
    func saveRecords(_ records: [StoredMarkSyncRecord], in zone: MarkSyncZoneKey) throws
    /// Up to `limit` records changed after `sequence`, oldest change first; tombstones only when
    /// `includeDeleted`.
    func changes(in zone: MarkSyncZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) throws -> [StoredMarkSyncRecord]
    /// The live records of type `type` in the zone, in no particular order.
    func records(ofType type: String, in zone: MarkSyncZoneKey) throws -> [StoredMarkSyncRecord]
    /// The position of the latest zone change (creation, record change or deletion) in
    /// `database`; 0 before any.
    func databaseChangePosition(_ database: MarkSyncDatabaseKey) throws -> Int64
    /// Up to `limit` zones of `database` created, changed or deleted after `position`, oldest
    /// change first; deleted zones only when `includeDeleted`.
    func zoneChanges(in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int) throws -> [MarkSyncZoneChange]
}

/// A zone's latest change in its database's change history.
public struct MarkSyncZoneChange: Sendable, Hashable {
    /// The zone as it is now (for a deleted zone: its key, with no history).
    public var zone: StoredMarkSyncZone
    /// The position of the change in the database's history.
    public var position: Int64
    /// Whether the change was the zone's deletion.
    public var isDeleted: Bool

    /// Creates a zone change.
    public init(zone: StoredMarkSyncZone, position: Int64, isDeleted: Bool) {
        self.zone = zone
        self.position = position
        self.isDeleted = isDeleted
    }
}

extension MarkSyncTransaction {
    /// A transaction that may write, unless the implementation says otherwise.
    public var isReadOnly: Bool { false }

    /// The stored records (tombstones included) among `names`, by name, with their fields.
    public func records(named names: [String], in zone: MarkSyncZoneKey) throws -> [String: StoredMarkSyncRecord] {
        try records(named: names, in: zone) { _ in true }
    }
}
