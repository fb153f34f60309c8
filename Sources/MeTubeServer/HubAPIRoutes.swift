import Foundation
import Hummingbird
import MeTubeAPI

/// The hub routes of section A of the MeTube hub API.
struct HubAPIRoutes<Context: RequestContext>: Sendable {
    /// The largest body a hub route reads.
    static var maxBodyBytes: Int { HubAPI.maxBodyBytes }

    let repository: any HubRepository

    /// Adds `GET /`, `GET /health`, `POST /api/channels/register`, `POST /api/channels` and
    /// `POST /api/videos/query` to `router`.
    func add(to router: Router<Context>) {
        router.get("/") { _, _ in
            Response.plainText("metube-server: a MeTube hub. POST /api/channels/register, POST /api/channels, POST /api/videos/query; GET /health.\n")
        }
        router.get(RouterPath(HubAPI.healthPath)) { _, _ in Response.plainText("ok") }
        router.post(RouterPath(HubAPI.registerPath)) { request, _ in try await register(request) }
        router.post(RouterPath(HubAPI.channelsPath)) { request, _ in try await channels(request) }
        router.post(RouterPath(HubAPI.videoQueryPath)) { request, _ in try await videos(request) }
    }

    private func register(_ request: Request) async throws -> Response {
        let ids = try HubRequestValidation.registerChannelIDs(body: try await body(of: request))
        return try .json(try await storage { try await repository.register(channelIDs: ids) })
    }

    private func channels(_ request: Request) async throws -> Response {
        _ = try await body(of: request)
        return try .json(HubChannelList(channels: try await storage { try await repository.channels(after: nil, limit: Int.max) }))
    }

    private func videos(_ request: Request) async throws -> Response {
        let selection = try HubRequestValidation.videoSelection(body: try await body(of: request))
        return .json(bytes: HubJSONWriter.page(try await storage { try await repository.videos(matching: selection) }))
    }

    private func body(of request: Request) async throws -> Data {
        var request = request
        do {
            return Data(try await request.collectBody(upTo: Self.maxBodyBytes).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw ServerError.payloadTooLarge(limit: Self.maxBodyBytes)
        }
    }

    private func storage<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.storage(String(describing: error))
        }
    }
}
