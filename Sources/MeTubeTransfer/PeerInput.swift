import Foundation

/// The range checks and caps every value from a peer (hub, mark-sync service, feed server, Google,
/// SponsorBlock) passes before it becomes a `Duration`, a count, a message or a stored value. Each
/// check answers the usable value or nil; callers drop or clear what is nil and say so in a note.
/// The sync's own checks (sequence numbers, record names, dates) extend it in MeTubeSync.
package enum PeerInput {
    /// The longest wait a peer may ask for; longer requests are clamped to it (and then the
    /// retry policy's own maximum decides whether to wait at all).
    package static let maxRetryAfter = Duration.seconds(3600)
    /// The most characters a video title or channel name keeps.
    package static let maxTitleCharacters = 500
    /// The most bytes a URL or an HTTP validator (ETag, Last-Modified) from a peer may have.
    package static let maxURLBytes = 2048

    /// The wait a `Retry-After` header asks for: whole or fractional seconds, clamped to
    /// 0…``maxRetryAfter``; nil for a missing, unreadable or NaN value (an HTTP date is not
    /// honoured: the policy's own waits apply).
    package static func retryAfter(header: String?) -> Duration? {
        guard let header, header.utf8.count <= 64 else { return nil }
        return retryAfter(seconds: Double(header.trimmingCharacters(in: .whitespaces)))
    }

    /// The wait a `retryAfter` field asks for, clamped like a header's.
    package static func retryAfter(seconds: Double?) -> Duration? {
        guard let seconds, !seconds.isNaN else { return nil }
        let limit = Double(maxRetryAfter.components.seconds)
        let clamped = min(max(seconds, 0), limit)
        return .milliseconds(Int64((clamped * 1000).rounded(.up)))
    }

    /// `text` cut to ``maxTitleCharacters`` characters.
    package static func title(_ text: String) -> String {
        text.utf8.count <= maxTitleCharacters ? text : String(text.prefix(maxTitleCharacters))
    }

    /// `text` when it is short enough to be a URL or validator, else nil.
    package static func shortText(_ text: String?, maxBytes: Int = maxURLBytes) -> String? {
        guard let text, text.utf8.count <= maxBytes else { return nil }
        return text
    }

    /// At most `limit` characters of a peer's error text for one line of a message: `secrets`
    /// (and any credential, see ``redact(_:hiding:)``) redacted before the text is cut, so no
    /// part of a token survives the cut, and control characters replaced by `?`.
    package static func errorText(_ bytes: some Collection<UInt8>, limit: Int = 200, hiding secrets: [String] = []) -> String {
        let text = redact(String(decoding: bytes.prefix(limit + 4096), as: UTF8.self), hiding: secrets)
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: "?"
            default: scalar
            }
        }))
    }

    /// `text` with every secret (as given and percent-encoded), every `ckWebAuthToken=` and
    /// `ckAPIToken=` query value and every bearer credential replaced by `<redacted>`, as the log
    /// file does: a proxy or server that echoes the request must not put a token into a message,
    /// a log or a report.
    package static func redact(_ text: String, hiding secrets: [String]) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            for form in Set([secret, PercentEncoding.escape(secret)]) {
                text = text.replacingOccurrences(of: form, with: "<redacted>")
            }
        }
        text = text.replacing(/(?i)(ck(?:WebAuth|API)Token=)[^&\s"'<>]+/) { "\($0.output.1)<redacted>" }
        return text.replacing(/(?i)(bearer\s+)[A-Za-z0-9._~+\/=-]+/) { "\($0.output.1)<redacted>" }
    }
}
