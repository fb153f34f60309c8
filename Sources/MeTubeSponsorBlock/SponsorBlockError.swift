import MeTubeCore
import MeTubeTransfer
import NIOHTTP1

/// Why SponsorBlock gave no segments for a video. Each case reads as one line, in the words a
/// sync failure has for the same trouble.
public enum SponsorBlockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id asked about is not a video id; nothing was sent.
    case notAVideoID(String)
    /// The request failed on its way: unreachable, too slow, too large, badly encoded, cancelled.
    case transfer(TransferFailure)
    /// SponsorBlock answered with a status other than 200 or 404.
    case http(status: Int)
    /// The answer is not a list of videos' segments.
    case unreadable

    public var description: String {
        switch self {
        case .notAVideoID(let id): "unreadable answer from the server: \(DisplayText.line(id, limit: 40)) is not a video id"
        case .transfer(let failure): failure.explanation(path: "SponsorBlock")
        case .http(let status): "the server answered HTTP \(status): \(HTTPResponseStatus(statusCode: status).reasonPhrase)"
        case .unreadable: "unreadable answer from the server: SponsorBlock: not a list of videos' segments"
        }
    }
}
