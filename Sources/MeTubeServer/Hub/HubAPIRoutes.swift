import Foundation
import Hummingbird
import MeTubeAPI
import MeTubeCore

/// The hub routes of section A of the MeTube hub API: HTTP in and out, the rest in ``HubService``.
struct HubAPIRoutes<Context: RequestContext>: Sendable {
    let service: HubService

    /// Adds `GET /`, `GET` and `HEAD /health`, `POST /api/channels/register`, `POST /api/channels`
    /// and `POST /api/videos/query` to `router`.
    func add(to router: Router<Context>) {
        router.get("/") { _, _ in
            HubResponses.plainText("metube-server: a MeTube hub. POST /api/channels/register, POST /api/channels, POST /api/videos/query; GET /health.\n")
        }
        router.get(RouterPath(HubAPI.healthPath)) { _, _ in
            HubResponses.health(databaseUnavailable: service.databaseUnavailableReason(), catalogFailure: await service.catalogFailure())
        }
        router.head(RouterPath(HubAPI.healthPath)) { _, _ in
            HubResponses.health(databaseUnavailable: service.databaseUnavailableReason(), catalogFailure: await service.catalogFailure())
        }
        router.post(RouterPath(HubAPI.registerPath)) { request, context in
            try HubResponses.json(try await service.register(body: try await Self.body(of: request), client: context.clientAddress))
        }
        router.post(RouterPath(HubAPI.channelsPath)) { request, _ in
            try HubResponses.json(try await service.channels(body: try await Self.body(of: request)))
        }
        router.post(RouterPath(HubAPI.videoQueryPath)) { request, _ in
            try await service.videoPage(body: try await Self.body(of: request), gzip: GzipCoding.accepts(request.headers)).response
        }
    }

    /// The body of `request`, at most `HubAPI.maxBodyBytes` (413 past it).
    static func body(of request: Request) async throws -> Data {
        var request = request
        do {
            return Data(try await request.collectBody(upTo: HubAPI.maxBodyBytes).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw ServerError.payloadTooLarge(limit: HubAPI.maxBodyBytes)
        }
    }
}
