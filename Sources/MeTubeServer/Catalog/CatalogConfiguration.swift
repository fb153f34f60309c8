/// How the hub brings in what a channel's feed does not say: a newly followed channel's last
/// uploads (the backfill) and, without a Data API key, the lengths of its videos — both from
/// yt-dlp's flat playlist of the channel (`--yt-dlp`), or the backfill from `playlistItems.list`
/// when a key is set.
public struct CatalogConfiguration: Sendable, Equatable {
    /// The uploads a newly followed channel brings unless `--backfill` says otherwise.
    public static let defaultBackfill = 50
    /// The most `--backfill` may ask for.
    public static let maxBackfill = 500

    /// The yt-dlp to run: a path, or a name looked up on `PATH`.
    public var ytDLP: String
    /// The uploads a newly followed channel brings (0: no backfill).
    public var backfill: Int
    /// How long one yt-dlp call may take.
    public var callDeadline: Duration
    /// The longest the service sleeps when no ingestion wakes it.
    public var idleInterval: Duration

    /// A configuration; checked by ``validate()``.
    public init(ytDLP: String = "yt-dlp", backfill: Int = Self.defaultBackfill, callDeadline: Duration = .seconds(120), idleInterval: Duration = .seconds(300)) {
        self.ytDLP = ytDLP
        self.backfill = backfill
        self.callDeadline = callDeadline
        self.idleInterval = idleInterval
    }

    /// Checks the settings; throws `ServerError.invalidConfiguration` naming the bad one.
    public func validate() throws(ServerError) {
        guard (0...Self.maxBackfill).contains(backfill) else { throw .invalidConfiguration("--backfill must be 0…\(Self.maxBackfill)") }
        guard !ytDLP.isEmpty, ytDLP.utf8.count <= 4_096, !ytDLP.utf8.contains(0) else { throw .invalidConfiguration("--yt-dlp must name a program") }
        guard callDeadline > .zero, idleInterval > .zero else { throw .invalidConfiguration("the catalog's intervals must be positive") }
    }
}
