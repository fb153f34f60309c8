import Foundation
import Hummingbird
import MeTubeAPI

/// `POST /api/channels/resolve`: a mark-sync user's links turned into channel ids by the hub
/// (``ChannelLinkResolver``). The user is named by their mark-sync token (`Authorization: Bearer`),
/// since lookups cost the household's YouTube quota and are limited per user, never per address.
struct ChannelResolveRoutes<Context: RequestContext>: Sendable {
    let resolver: ChannelLinkResolver
    /// Where the mark-sync users are.
    let users: any MarkSyncRepository
    /// How long a request waits for lookups before it answers the rest as pending.
    let window: Duration

    /// The window of requests answered within `handlerDeadline`: 2 s less, at least 0.5 s.
    static func window(handlerDeadline: Duration) -> Duration {
        max(.milliseconds(500), handlerDeadline - .seconds(2))
    }

    /// Adds the route to `router`.
    func add(to router: Router<Context>) {
        router.post(RouterPath(HubAPI.resolvePath)) { request, _ in
            let userID = try await authenticate(request)
            let links = try HubRequestValidation.resolveLinks(body: try await HubAPIRoutes<Context>.body(of: request))
            return try HubResponses.json(HubResolveResponse(results: try await resolver.resolve(links, userID: userID, within: window)))
        }
    }

    /// The id of the mark-sync user whose token `request` carries as `Authorization: Bearer`.
    private func authenticate(_ request: Request) async throws -> Int64 {
        let parts = (request.headers[.authorization] ?? "").split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].utf8.count <= 256 else {
            throw ServerError.unauthorized("resolving links needs a status user's token as Authorization: Bearer TOKEN (metube login)")
        }
        guard let user = try await users.user(tokenHash: MarkSyncTokenHasher.hash(String(parts[1]))) else {
            throw ServerError.unauthorized("the user token is not valid (wrong, or its user was removed)")
        }
        return user.id
    }
}
