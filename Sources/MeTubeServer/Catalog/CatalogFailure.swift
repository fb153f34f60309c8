import Foundation
import MeTubeCore
import MeTubeFeeds

/// The channel catalog's trouble, for `/health`: the calls that failed since the last one that
/// succeeded, the last reason, and when the channel that failed last is tried again.
struct CatalogFailure: Sendable, Equatable {
    /// Calls failed since the last success.
    var calls: Int
    /// The last failure, one line naming the channel and the cause.
    var reason: String
    /// When the channel that failed last is tried again.
    var retryAt: Date

    /// The value of the `MeTube-Catalog` header: `failing; calls=N; retry=ISO 8601; reason=…`,
    /// printable ASCII only (anything else becomes `?`), the reason cut to 300 characters.
    var headerValue: String {
        let reason = String(String.UnicodeScalarView(reason.unicodeScalars.prefix(300).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
        return "failing; calls=\(calls); retry=\(ISO8601Timestamp.format(retryAt)); reason=\(reason)"
    }
}
