import Foundation
import HTTPTypes
import Hummingbird

/// The WebSub callback routes: `GET /websub/CHANNEL_ID` (verification of intent) and
/// `POST /websub/CHANNEL_ID` (notifications); HTTP in and out, the rest in ``WebSubService``.
struct WebSubRoutes<Context: RequestContext>: Sendable {
    let service: WebSubService

    /// Adds both routes to `router`.
    func add(to router: Router<Context>) {
        router.get("/websub/:channelId") { request, context -> Response in
            let channelID = try context.parameters.require("channelId")
            var parameters: [String: String] = [:]
            for (name, value) in request.uri.queryParameters where parameters[String(name)] == nil {
                parameters[String(name)] = String(value)
            }
            switch try await service.verify(channelID: channelID, parameters: parameters) {
            case .challenge(let challenge):
                return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: challenge)))
            case .acknowledged:
                return Response(status: .noContent)
            case .refused:
                throw ServerError.notFound
            }
        }
        router.post("/websub/:channelId") { request, context -> Response in
            let channelID = try context.parameters.require("channelId")
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: WebSubService.maxNotificationBytes)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                throw ServerError.payloadTooLarge(limit: WebSubService.maxNotificationBytes)
            }
            let signature = request.headers[HTTPField.Name(WebSubSignature.headerName)!]
            switch try await service.receive(channelID: channelID, body: Data(body.readableBytesView), signature: signature) {
            case .ingested, .dropped:
                return Response(status: .noContent)
            case .unknown:
                throw ServerError.notFound
            }
        }
    }
}
