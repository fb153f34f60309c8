/// A request-level error body: `{"uuid", "serverErrorCode", "reason", "retryAfter"?, "redirectURL"?}`.
///
/// The server throws it to answer a request with an error; the client decodes it from any
/// non-2xx response.
public struct MarkSyncErrorBody: Error, Codable, Sendable, Hashable {
    /// A unique id for this error.
    public var uuid: String
    /// What went wrong.
    public var serverErrorCode: MarkSyncErrorCode
    /// A human-readable explanation.
    public var reason: String
    /// Seconds to wait before retrying; absent when retrying the same request cannot help.
    public var retryAfter: Double?
    /// Where to sign in; only with `AUTHENTICATION_REQUIRED`.
    public var redirectURL: String?

    /// The prefix of `reason` when a request is over a size or count limit.
    public static let limitExceededPrefix = "LIMIT_EXCEEDED: "

    /// The `retryAfter` values accepted from a peer, in seconds: up to a year. A negative wait or a
    /// longer one is no wait a client can honour, and is refused when decoded.
    public static let retryAfterRange: ClosedRange<Double> = 0...31_536_000

    /// Creates an error body with a fresh uuid.
    public init(_ code: MarkSyncErrorCode, _ reason: String, retryAfter: Double? = nil, redirectURL: String? = nil) {
        self.uuid = MarkSyncIdentifier.random()
        self.serverErrorCode = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
    }

    /// Decodes an error body, refusing a `retryAfter` outside ``retryAfterRange``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.decode(String.self, forKey: .uuid)
        serverErrorCode = try container.decode(MarkSyncErrorCode.self, forKey: .serverErrorCode)
        reason = try container.decode(String.self, forKey: .reason)
        retryAfter = try container.decodeNumberIfPresent(forKey: .retryAfter, in: Self.retryAfterRange)
        redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL)
    }

    /// A `BAD_REQUEST` whose reason starts with `LIMIT_EXCEEDED: `, the answer to a request over a
    /// limit; a client splits the batch in half and retries.
    public static func limitExceeded(_ detail: String) -> MarkSyncErrorBody {
        MarkSyncErrorBody(.badRequest, limitExceededPrefix + detail)
    }

    /// Whether this is the answer to a request over a size or count limit.
    public var isLimitExceeded: Bool {
        serverErrorCode == .badRequest && reason.hasPrefix(Self.limitExceededPrefix)
    }
}

extension MarkSyncErrorBody: CustomStringConvertible {
    /// `CODE: reason`.
    public var description: String { "\(serverErrorCode.rawValue): \(reason)" }
}
