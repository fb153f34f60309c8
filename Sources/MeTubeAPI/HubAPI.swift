/// Paths, limits and defaults of the MeTube hub API (the Cloudflare Worker's API, which
/// `metube-server` implements), shared by the client and the server.
public enum HubAPI {
    /// `GET`: plain-text `ok`.
    public static let healthPath = "/health"
    /// `POST` `HubRegisterRequest` → `HubRegisterResponse`.
    public static let registerPath = "/api/channels/register"
    /// `POST` `HubChannelsRequest` (or no body: the first page) → `HubChannelList`.
    public static let channelsPath = "/api/channels"
    /// `POST` `HubVideoQuery` → `HubVideoPage`.
    public static let videoQueryPath = "/api/videos/query"
    /// `POST` `HubResolveRequest` with `Authorization: Bearer <mark-sync user token>` → `HubResolveResponse`.
    public static let resolvePath = "/api/channels/resolve"

    /// The most channel ids one register request may carry.
    public static let maxRegisterChannelIDs = 500
    /// The most links one resolve request may carry.
    public static let maxResolveLinks = 100
    /// The longest link a resolve request may carry, in UTF-8 bytes.
    public static let maxResolveLinkBytes = 2_048
    /// The most channel ids one video query may carry.
    public static let maxQueryChannelIDs = 300
    /// The page size when a query names none.
    public static let defaultQueryLimit = 200
    /// The allowed page sizes.
    public static let queryLimitRange = 1...500
    /// The largest `afterSeq` accepted (JavaScript's largest exactly representable integer).
    public static let maxAfterSeq: Int64 = 9_007_199_254_740_991
    /// Accepted channel-id lengths after trimming.
    public static let channelIDLengthRange = 10...128
    /// The largest request body the server reads; larger ones get 413.
    public static let maxBodyBytes = 1 << 20
    /// The page size of `POST /api/channels` when the request names none.
    public static let defaultChannelsPageSize = 1_000
    /// The allowed page sizes of `POST /api/channels`.
    public static let channelsPageSizeRange = 1...5_000
    /// Roughly how many of each channel's newest videos the hub keeps.
    public static let videosKeptPerChannel = 100

    /// Whether `id` passes the hub's plausibility filter: 10–128 characters of `[A-Za-z0-9_-]`.
    public static func isPlausibleChannelID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard channelIDLengthRange.contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
