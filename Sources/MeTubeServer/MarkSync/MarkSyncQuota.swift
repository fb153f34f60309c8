/// How much of the mark-sync service one user may hold: zones (the default zone not counted), live
/// records and stored bytes (``MarkSyncRecordBytes``), across all their containers and
/// environments. A write that would go over answers QUOTA_EXCEEDED for what does not fit.
public struct MarkSyncQuota: Sendable, Hashable {
    /// The most zones besides each database's default zone.
    public var zones: Int64
    /// The most live records (tombstones not counted).
    public var records: Int64
    /// The most stored bytes, tombstones included.
    public var bytes: Int64

    /// Creates a quota.
    public init(zones: Int64, records: Int64, bytes: Int64) {
        self.zones = zones
        self.records = records
        self.bytes = bytes
    }

    /// The quota of a user the operator set none for unless the server is told otherwise: more
    /// than a household's devices ever write (metube keeps one zone and a record per video).
    public static let household = MarkSyncQuota(zones: 100, records: 1_000_000, bytes: 1 << 30)

    /// The highest value any of the three may be set to.
    public static let maxValue: Int64 = 1 << 50
}

/// What one user holds (or what a write adds to it, when negative: what it frees).
public struct MarkSyncUsage: Sendable, Hashable {
    /// Zones besides each database's default zone.
    public var zones: Int64
    /// Live records.
    public var records: Int64
    /// Stored bytes (``MarkSyncRecordBytes``), tombstones included.
    public var bytes: Int64

    /// Creates a usage.
    public init(zones: Int64 = 0, records: Int64 = 0, bytes: Int64 = 0) {
        self.zones = zones
        self.records = records
        self.bytes = bytes
    }

    /// Nothing.
    public static let zero = MarkSyncUsage()

    /// Both added up.
    public static func + (left: MarkSyncUsage, right: MarkSyncUsage) -> MarkSyncUsage {
        MarkSyncUsage(zones: left.zones + right.zones, records: left.records + right.records, bytes: left.bytes + right.bytes)
    }

    /// What undoes `usage`.
    public static prefix func - (usage: MarkSyncUsage) -> MarkSyncUsage {
        MarkSyncUsage(zones: -usage.zones, records: -usage.records, bytes: -usage.bytes)
    }

    /// Why this usage, reached by `change`, is refused: the first of zones, records and bytes
    /// that `change` grows past `quota`, for the QUOTA_EXCEEDED reason; nil when it fits. What
    /// `change` does not grow may stay over a quota lowered since.
    func excess(growing change: MarkSyncUsage, over quota: MarkSyncQuota) -> String? {
        if change.zones > 0, zones > quota.zones { return "the user's quota is \(quota.zones) zones" }
        if change.records > 0, records > quota.records { return "the user's quota is \(quota.records) records" }
        if change.bytes > 0, bytes > quota.bytes { return "the user's quota is \(quota.bytes) bytes, this would make \(bytes)" }
        return nil
    }
}

/// The quota the operator set for one user (`metube-server users quota`); a nil limit is the
/// server's default (`serve --quota-zones|--quota-records|--quota-bytes`).
public struct MarkSyncQuotaSetting: Sendable, Hashable {
    /// The most zones, or nil for the server's default.
    public var zones: Int64?
    /// The most live records, or nil for the server's default.
    public var records: Int64?
    /// The most stored bytes, or nil for the server's default.
    public var bytes: Int64?

    /// Creates a setting.
    public init(zones: Int64? = nil, records: Int64? = nil, bytes: Int64? = nil) {
        self.zones = zones
        self.records = records
        self.bytes = bytes
    }

    /// The quota in force where the server's default is `defaults`.
    public func quota(defaults: MarkSyncQuota) -> MarkSyncQuota {
        MarkSyncQuota(zones: zones ?? defaults.zones, records: records ?? defaults.records, bytes: bytes ?? defaults.bytes)
    }
}

/// One user's row of usage: what they hold and the quota set for them.
public struct MarkSyncUserUsage: Sendable, Hashable {
    /// What the user holds.
    public var usage: MarkSyncUsage
    /// The quota the operator set for them.
    public var setting: MarkSyncQuotaSetting

    /// Creates a usage row.
    public init(usage: MarkSyncUsage = .zero, setting: MarkSyncQuotaSetting = .init()) {
        self.usage = usage
        self.setting = setting
    }
}

/// The bytes a stored record counts for against its user's quota: its stored fields, name and
/// type, plus ``rowOverhead`` for the row itself, so that tombstones (which keep name and type)
/// count too and a user cannot grow the database by creating and deleting records.
public enum MarkSyncRecordBytes {
    /// What each row counts for besides its text and fields.
    public static let rowOverhead: Int64 = 64

    /// The bytes of a record named `name` of type `type` whose stored fields are
    /// `storedFieldBytes` long. The SQL of both backends computes the same sum (``sql``).
    public static func of(name: String, type: String, storedFieldBytes: Int) -> Int64 {
        rowOverhead + Int64(name.utf8.count + type.utf8.count + storedFieldBytes)
    }

    /// The same sum in SQL over `status_records`, given each backend's function for the length
    /// in bytes of a text or blob column.
    static func sql(byteLength: (String) -> String) -> String {
        "\(rowOverhead) + \(byteLength("fields")) + \(byteLength("name")) + \(byteLength("type"))"
    }
}

/// What one write takes from (or gives back to) its user's quota, from the usage its transaction
/// read: the usage is read once and written once, two statements a transaction, none a record.
struct MarkSyncQuotaLedger: Sendable {
    /// The usage row as the transaction found it.
    let start: MarkSyncUserUsage
    /// The server's default quota.
    let defaults: MarkSyncQuota
    /// What the transaction changes so far.
    private(set) var delta = MarkSyncUsage.zero

    /// A ledger of a user who holds `start`, whose quota is `defaults` unless set otherwise.
    init(start: MarkSyncUserUsage, defaults: MarkSyncQuota) {
        self.start = start
        self.defaults = defaults
    }

    /// Adds `change`, unless it grows a count past the user's quota: then answers why and
    /// changes nothing.
    mutating func take(_ change: MarkSyncUsage) -> String? {
        let after = start.usage + delta + change
        if let excess = after.excess(growing: change, over: start.setting.quota(defaults: defaults)) { return excess }
        delta = delta + change
        return nil
    }
}
