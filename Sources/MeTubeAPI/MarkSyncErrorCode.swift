/// A `serverErrorCode` of the mark-sync service, with the HTTP status it travels with.
public enum MarkSyncErrorCode: String, Codable, Sendable, CaseIterable {
    case accessDenied = "ACCESS_DENIED"
    case atomicError = "ATOMIC_ERROR"
    case authenticationFailed = "AUTHENTICATION_FAILED"
    case authenticationRequired = "AUTHENTICATION_REQUIRED"
    case badRequest = "BAD_REQUEST"
    case conflict = "CONFLICT"
    case exists = "EXISTS"
    case internalError = "INTERNAL_ERROR"
    case notFound = "NOT_FOUND"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case throttled = "THROTTLED"
    case tryAgainLater = "TRY_AGAIN_LATER"
    case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
    case zoneNotFound = "ZONE_NOT_FOUND"

    /// The HTTP status of a request-level error with this code.
    public var httpStatus: Int {
        switch self {
        case .accessDenied: 403
        case .atomicError, .badRequest: 400
        case .authenticationFailed: 401
        case .authenticationRequired: 421
        case .conflict, .exists: 409
        case .internalError: 500
        case .notFound, .zoneNotFound: 404
        case .quotaExceeded: 413
        case .throttled: 429
        case .tryAgainLater: 503
        case .validatingReferenceError: 412
        }
    }

    /// Whether repeating the same request later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .throttled, .tryAgainLater, .internalError: true
        default: false
        }
    }
}
