import Foundation
import MeTubeAPI
import MeTubeCore

/// The range checks and caps every value from a peer (hub, status service, feed server) passes
/// before it becomes a `Duration`, an `Int`, a count or a stored value. Each check answers the
/// usable value or nil; callers drop or clear what is nil and say so in a note.
enum PeerInput {
    /// The longest wait a peer may ask for; longer requests are clamped to it (and then the
    /// retry policy's own maximum decides whether to wait at all).
    static let maxRetryAfter = Duration.seconds(3600)
    /// The longest video a peer may report, in seconds (a week; YouTube's limit is 12 hours).
    static let maxDurationSeconds = 7 * 24 * 3600
    /// The latest clock reading a peer may send: 9999-12-31T23:59:59.999Z in milliseconds, far
    /// below what the store's reader accepts.
    static let maxMillis: Int64 = 253_402_300_799_999
    /// The earliest date a peer may say a video was queued: 2005-04-23T00:00:00Z, YouTube's first
    /// upload, in milliseconds; an earlier `queuedAt` or `queueHlc` is not a date (it would show
    /// as queued in 1970 and sort first).
    static let earliestQueueMillis: Int64 = 1_114_214_400_000
    /// How far ahead of this device's clock a peer's queue date may run: a day of clock skew.
    static let maxQueueLead: Int64 = 86_400_000
    /// The most characters a video title or channel name keeps.
    static let maxTitleCharacters = 500
    /// The most bytes a status record name, device id or change tag may have.
    static let maxNameBytes = 128
    /// The most bytes a status sync token may have.
    static let maxSyncTokenBytes = 1024
    /// The most bytes a URL or an HTTP validator (ETag, Last-Modified) from a peer may have.
    static let maxURLBytes = 2048

    /// The wait a `Retry-After` header asks for: whole or fractional seconds, clamped to
    /// 0…``maxRetryAfter``; nil for a missing, unreadable or NaN value (an HTTP date is not
    /// honoured: the policy's own waits apply).
    static func retryAfter(header: String?) -> Duration? {
        guard let header, header.utf8.count <= 64 else { return nil }
        return retryAfter(seconds: Double(header.trimmingCharacters(in: .whitespaces)))
    }

    /// The wait a `retryAfter` field asks for, clamped like a header's.
    static func retryAfter(seconds: Double?) -> Duration? {
        guard let seconds, !seconds.isNaN else { return nil }
        let limit = Double(maxRetryAfter.components.seconds)
        let clamped = min(max(seconds, 0), limit)
        return .milliseconds(Int64((clamped * 1000).rounded(.up)))
    }

    /// `seq` when it is a usable hub sequence number: 1…`HubAPI.maxAfterSeq`.
    static func seq(_ seq: Int64) -> Int64? {
        (1...HubAPI.maxAfterSeq).contains(seq) ? seq : nil
    }

    /// A video length when it is plausible: 0…``maxDurationSeconds``.
    static func durationSeconds(_ seconds: Int) -> Int? {
        (0...maxDurationSeconds).contains(seconds) ? seconds : nil
    }

    /// Milliseconds since 1970 when they fall between 1970 and the year 9999.
    static func millis(_ millis: Int64) -> Int64? {
        (0...maxMillis).contains(millis) ? millis : nil
    }

    /// Milliseconds since 1970 when they are a plausible date for queueing a video at `now`:
    /// from ``earliestQueueMillis`` to ``maxQueueLead`` after `now`.
    static func queueMillis(_ millis: Int64, now: Int64) -> Int64? {
        (earliestQueueMillis...max(earliestQueueMillis, now.addingReportingOverflow(maxQueueLead).partialValue)).contains(millis) ? millis : nil
    }

    /// Whether `id` is a YouTube video id: 11 characters of `[A-Za-z0-9_-]`.
    static func isVideoID(_ id: String) -> Bool { VideoID.isValid(id) }

    /// Whether `id` is a YouTube channel id: `UC` and 22 characters of `[A-Za-z0-9_-]`.
    static func isChannelID(_ id: String) -> Bool { ChannelID.isValid(id) }

    /// Whether `name` can be a status record name: 1…``maxNameBytes`` bytes of the id alphabet
    /// `[A-Za-z0-9_-]` (lenient about length, as other clients' records may not be YouTube ids,
    /// but never holding control characters or megabytes).
    static func isRecordName(_ name: String) -> Bool {
        (1...maxNameBytes).contains(name.utf8.count) && name.utf8.allSatisfy(ChannelID.isIDByte)
    }

    /// `text` cut to ``maxTitleCharacters`` characters.
    static func title(_ text: String) -> String {
        text.utf8.count <= maxTitleCharacters ? text : String(text.prefix(maxTitleCharacters))
    }

    /// `text` when it is short enough to be a URL or validator, else nil.
    static func shortText(_ text: String?, maxBytes: Int = maxURLBytes) -> String? {
        guard let text, text.utf8.count <= maxBytes else { return nil }
        return text
    }

    /// At most `limit` characters of a peer's error text for one line of a message: `secrets`
    /// (and any credential, see ``redact(_:hiding:)``) redacted before the text is cut, so no
    /// part of a token survives the cut, and control characters replaced by `?`.
    static func errorText(_ bytes: some Collection<UInt8>, limit: Int = 200, hiding secrets: [String] = []) -> String {
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
    static func redact(_ text: String, hiding secrets: [String]) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            for form in Set([secret, MarkSyncEndpoint.escape(secret)]) {
                text = text.replacingOccurrences(of: form, with: "<redacted>")
            }
        }
        text = text.replacing(/(?i)(ck(?:WebAuth|API)Token=)[^&\s"'<>]+/) { "\($0.output.1)<redacted>" }
        return text.replacing(/(?i)(bearer\s+)[A-Za-z0-9._~+\/=-]+/) { "\($0.output.1)<redacted>" }
    }
}
