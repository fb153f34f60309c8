import Foundation
import Hummingbird
import MeTubeAPI

/// The hub's behaviour, independent of HTTP: it validates request bodies, applies the hub's
/// limits and answers from a ``HubRepository``.
///
/// Failures of the request are thrown as ``ServerError``; anything else comes from the storage.
public struct HubService: Sendable {
    /// The storage.
    public let repository: any HubRepository

    /// Creates the service over `repository`.
    public init(repository: any HubRepository) {
        self.repository = repository
    }

    /// `channels/register`: stores the plausible channel ids of `body`.
    func register(body: some DataProtocol) async throws -> HubRegisterResponse {
        try await repository.register(channelIDs: try HubRequestValidation.registerChannelIDs(body: body))
    }

    /// `channels`: the registered channels.
    func channels(body: some DataProtocol) async throws -> HubChannelList {
        HubChannelList(channels: try await repository.channels(after: nil, limit: Int.max))
    }

    /// `videos/query`: the page `body` asks for, as its JSON answer.
    func videoPage(body: some DataProtocol) async throws -> ByteBuffer {
        HubJSONWriter.page(try await repository.videos(matching: try HubRequestValidation.videoSelection(body: body)))
    }
}
