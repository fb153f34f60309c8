import Foundation
import MeTubeAPI

/// A user of the mark-sync service.
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

    /// Keys are equal when their databases are and their zone names have the same bytes
    /// (``MarkSyncExactName``), as the stores compare them.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.database == rhs.database && MarkSyncExactName(lhs.zoneName) == MarkSyncExactName(rhs.zoneName)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(database)
        hasher.combine(MarkSyncExactName(zoneName))
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

/// Storage for the mark-sync service: users, zones and records.
///
/// The server has two implementations: ``SQLiteMarkSyncRepository`` (a file, or in memory for
/// tests) and ``PostgresMarkSyncRepository``; ``ServerStorage`` opens the one configured.
/// Repositories return domain values and throw ``ServerError/storage(_:)`` for failures of the
/// storage itself. They hold no rules: a write reads what its decision needs, calls the
/// service's decision once and writes what it returns, in one transaction; a read answers from
/// one consistent state.
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
    /// Nothing is written when `decide` throws. Concurrent calls for one user database decide
    /// one after another, each seeing the writes of the ones before.
    func modify<T: Sendable>(
        _ reads: MarkSyncModifyReads, deciding decide: @escaping @Sendable (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)
    ) async throws -> T
    /// Runs one `zones/modify` as one write transaction, as ``modify(_:deciding:)`` does: reads
    /// the zones `reads` names, what those it may delete hold and the user's usage, decides once,
    /// creates and deletes the zones `decide` says and commits.
    func modifyZones<T: Sendable>(
        _ reads: MarkSyncZonesReads, deciding decide: @escaping @Sendable (MarkSyncZonesState) throws -> (T, MarkSyncZonesWrites)
    ) async throws -> T
    /// The zone and, read in the same transaction, its records that `selection` picks (with their
    /// fields); nil when the zone does not exist.
    func zone(_ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])?
    /// Up to `limit` zones of `database` whose names sort (bytewise) after `name`, or from the
    /// first when it is nil, in that order.
    func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) async throws -> [StoredMarkSyncZone]
    /// The zones of `database` named `names`, read in one transaction: for each name, in order,
    /// its zone or nil. A name may repeat, and matches a zone's name byte for byte.
    func zones(in database: MarkSyncDatabaseKey, named names: [String]) async throws -> [StoredMarkSyncZone?]
    /// The position of the latest zone change (creation, record change or deletion) in
    /// `database` (0 before any) and, read in the same transaction, up to `limit` zones created,
    /// changed or deleted after `position`, oldest change first; deleted zones only when
    /// `includeDeleted`.
    func zoneChanges(
        in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int
    ) async throws -> (latest: Int64, changes: [MarkSyncZoneChange])
}

/// The records of a zone a read picks besides the zone itself.
public enum MarkSyncRecordSelection: Sendable, Hashable {
    /// None.
    case none
    /// The stored records (tombstones included) among these names, in no particular order.
    case named([String])
    /// Up to `limit` records changed after `sequence`, oldest change first; tombstones only when
    /// `includeDeleted`.
    case changed(after: Int64, includeDeleted: Bool, limit: Int)
    /// The live records of this type, in no particular order.
    case ofType(String)
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
