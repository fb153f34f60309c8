import MeTubeAPI

/// Settings of the mark-sync service: containers, limits and throttling.
public struct MarkSyncConfiguration: Sendable {
    /// The container metube uses unless told otherwise.
    public static let defaultContainer = "iCloud.com.metube.app"
    /// The API token of the default container unless configured otherwise.
    public static let defaultAPIToken = "metube"

    /// The API token (`ckAPIToken`) each served container expects, by container id.
    public var apiTokens: [String: String]
    /// At most this many operations (or looked-up records) per request.
    public var maxOperationsPerRequest: Int
    /// At most this many records per response (`resultsLimit` cap of `changes/zone`).
    public var maxRecordsPerResponse: Int
    /// A record whose fields encode to more bytes than this is refused with QUOTA_EXCEEDED.
    public var maxRecordBytes: Int
    /// A request body over this many bytes is refused with `LIMIT_EXCEEDED`.
    public var maxBodyBytes: Int
    /// Requests per second allowed to each user; `nil` turns throttling off.
    public var requestsPerSecond: Double?
    /// How many requests a user may make at once before throttling starts.
    public var burst: Int
    /// The `redirectURL` of every AUTHENTICATION_REQUIRED answer: where a user gets a token.
    public var signInURL: String
    /// The quota of each user the operator set none for (`metube-server users quota`).
    public var quota: MarkSyncQuota

    /// The sign-in URL unless configured otherwise: there is no sign-in page, tokens come from
    /// `metube-server users add`.
    public static let defaultSignInURL = "about:blank"

    /// Creates a configuration; the defaults are the documented CloudKit Web Services limits,
    /// 40 requests per second per user and the ``MarkSyncQuota/household`` quota.
    public init(
        apiTokens: [String: String] = [MarkSyncConfiguration.defaultContainer: MarkSyncConfiguration.defaultAPIToken],
        maxOperationsPerRequest: Int = 200,
        maxRecordsPerResponse: Int = 200,
        maxRecordBytes: Int = 1_000_000,
        maxBodyBytes: Int = 4 * 1024 * 1024,
        requestsPerSecond: Double? = 40,
        burst: Int = 40,
        signInURL: String = MarkSyncConfiguration.defaultSignInURL,
        quota: MarkSyncQuota = .household
    ) {
        self.apiTokens = apiTokens
        self.maxOperationsPerRequest = maxOperationsPerRequest
        self.maxRecordsPerResponse = maxRecordsPerResponse
        self.maxRecordBytes = maxRecordBytes
        self.maxBodyBytes = maxBodyBytes
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.signInURL = signInURL
        self.quota = quota
    }
}
