/// The JSON error body every hub error answer carries: `{"error":"..."}`.
public struct HubErrorBody: Codable, Sendable, Equatable {
    /// What went wrong, for people.
    public var error: String

    /// Creates an error body.
    public init(error: String) { self.error = error }
}
