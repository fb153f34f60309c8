/// A value of a mark as the mark-sync service holds it: the change tag that names the version, and
/// what it says.
public struct ServerVersion: Codable, Sendable, Hashable {
    /// The server's change tag for this version of the record.
    public var changeTag: String
    /// The status the record holds.
    public var status: WatchStatus
    /// The hybrid logical clock reading stored with the record, when the writer sent one.
    public var hlc: HybridTimestamp?
    /// The device that wrote this version, when it said.
    public var deviceID: String?

    /// Creates a server version.
    public init(changeTag: String, status: WatchStatus, hlc: HybridTimestamp? = nil, deviceID: String? = nil) {
        self.changeTag = changeTag
        self.status = status
        self.hlc = hlc
        self.deviceID = deviceID
    }
}

/// The user's decision about one video, with what the sync knows of it.
public struct Mark: Codable, Sendable, Hashable {
    // Declared so the fields pack into 72 bytes: a library holds a mark for most of its videos.
    /// The video this mark is about.
    public var videoID: String
    /// The device that made the decision.
    public var deviceID: String
    /// When the decision was made, on the hybrid logical clock.
    public var hlc: HybridTimestamp
    /// What the user decided.
    public var status: WatchStatus
    /// Whether the mark-sync service holds this value.
    public var syncState: SyncState
    /// The last server version this device knew; `nil` before the first push or pull.
    @Boxed public var base: ServerVersion?
    /// The server's competing version while ``syncState`` is `conflict`.
    @Boxed public var theirs: ServerVersion?
    /// The name of the config file's rule that made this mark, when a rule did (a sync's new
    /// video matched a `skip` rule); `nil` for the user's own marks and those pulled from others.
    @Boxed public var rule: String?

    /// Creates a mark.
    public init(
        videoID: String, status: WatchStatus, hlc: HybridTimestamp, deviceID: String,
        syncState: SyncState = .pending, base: ServerVersion? = nil, theirs: ServerVersion? = nil, rule: String? = nil
    ) {
        self.videoID = videoID
        self.status = status
        self.hlc = hlc
        self.deviceID = deviceID
        self.syncState = syncState
        _base = Boxed(wrappedValue: base)
        _theirs = Boxed(wrappedValue: theirs)
        _rule = Boxed(wrappedValue: rule)
    }

    /// The keys of a mark's JSON object in the store's files and backups: the one place they are
    /// spelled, used by this type's `Codable` conformance and by the store's own reader and writer.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case videoID, deviceID, hlc, status, syncState, base, theirs, rule
    }

    /// Whether this mark was made after `other`: by clock reading, ties broken by device id.
    public func isNewer(than other: Mark) -> Bool {
        (hlc, deviceID) > (other.hlc, other.deviceID)
    }
}

/// What a video's row shows: a mark's status, or `unknown` before any mark or mark-sync pull.
public enum DisplayStatus: String, Codable, Sendable, CaseIterable {
    case unknown
    case unwatched
    case watched
    case skipped

    /// The display form of a mark's status, `unknown` when there is no mark.
    public init(_ status: WatchStatus?) {
        switch status {
        case nil: self = .unknown
        case .unwatched?: self = .unwatched
        case .watched?: self = .watched
        case .skipped?: self = .skipped
        }
    }
}
/// Keeps an optional value out of line: a mark is mostly without server versions, and tens of
/// thousands of marks stay small in memory this way. Encodes exactly like the optional itself.
@propertyWrapper
public struct Boxed<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        storage = wrappedValue.map(Storage.init)
    }

    /// The value, if any.
    public var wrappedValue: Value? {
        get { storage?.value }
        set { storage = newValue.map(Storage.init) }
    }

    public static func == (lhs: Boxed, rhs: Boxed) -> Bool { lhs.wrappedValue == rhs.wrappedValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// Lets a missing key decode as an empty ``Boxed`` value, as it would for a plain optional.
    public func decode<Value>(_ type: Boxed<Value>.Type, forKey key: Key) throws -> Boxed<Value> {
        try decodeIfPresent(type, forKey: key) ?? Boxed(wrappedValue: nil)
    }
}
