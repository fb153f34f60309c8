/// The JSON error body every hub error answer carries: `{"error":"..."}`, and
/// `{"error":"internal error","requestId":"..."}` when the server failed.
public struct HubErrorBody: Codable, Sendable, Equatable {
    /// What went wrong, for people.
    public var error: String
    /// The id the server logged the failure under; only for server failures (500).
    public var requestID: String?

    /// Creates an error body.
    public init(error: String, requestID: String? = nil) {
        self.error = error
        self.requestID = requestID
    }

    enum CodingKeys: String, CodingKey {
        case error
        case requestID = "requestId"
    }
}
