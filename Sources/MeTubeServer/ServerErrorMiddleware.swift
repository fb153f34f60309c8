import HTTPTypes
import Hummingbird
import Logging
import MeTubeAPI

/// The one place where failures become answers.
///
/// Every answer carries a fresh request id as `X-Request-Id`. Failures of the request keep their
/// documented answers: a ``ServerError`` as `{"error":"…"}` on the hub, a `MarkSyncErrorBody` as
/// itself on the mark-sync routes; an unknown path or method gets 404 and a body over the limit 413,
/// each in the shape of the API the path falls under. A database that cannot answer now gets 503
/// with its reason and `Retry-After` (``ServerError/answer``). Anything else is unexpected: it is logged
/// with the request id, method and path, and the client gets 500 with the request id and no
/// detail: `{"error":"internal error","requestId":"…"}` on the hub, `INTERNAL_ERROR` with the
/// id as `uuid` on the mark-sync routes (`/database/…`).
///
/// Paths are exact: one with a trailing slash (other than `/`) is not found.
public struct ServerErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header that carries the request id.
    public static var requestIDHeader: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    /// Creates the middleware.
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let requestID = MarkSyncIdentifier.random()
        var response: Response
        do {
            let path = request.uri.path
            guard path == "/" || !path.hasSuffix("/") else { throw ServerError.notFound }
            response = try await next(request, context)
        } catch {
            response = answer(to: error, request: request, requestID: requestID, logger: context.logger)
        }
        response.headers[Self.requestIDHeader] = requestID
        return response
    }

    private func answer(to error: any Error, request: Request, requestID: String, logger: Logger) -> Response {
        let isMarkSync = request.uri.path.hasPrefix("/database/")
        if isMarkSync, let body = error as? MarkSyncErrorBody { return MarkSyncResponses.error(body) }
        guard let failure = Self.answer(to: error, isMarkSync: isMarkSync) else {
            logger.error("unexpected error", metadata: [
                "requestId": "\(requestID)", "method": "\(request.method)", "path": "\(request.uri.path)",
                "error": "\(String(reflecting: error))",
            ])
            return Self.answer(.storage(.failed("unexpected")), path: request.uri.path, requestID: requestID)
        }
        return Self.answer(failure, path: request.uri.path, requestID: requestID)
    }

    /// What the client is told of `error`: a ``ServerError``'s ``ServerError/answer``, 404 for an
    /// unknown path or method, 413 for a body over the limit; nil when it is unexpected.
    private static func answer(to error: any Error, isMarkSync: Bool) -> ServerError? {
        switch error {
        case let error as ServerError: error.answer
        case let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed: .notFound
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            .payloadTooLarge(limit: isMarkSync ? MarkSyncConfiguration().maxBodyBytes : HubAPI.maxBodyBytes)
        default: nil
        }
    }

    /// The answer to `failure` in the shape of the API `path` falls under.
    static func answer(_ failure: ServerError, path: String, requestID: String) -> Response {
        path.hasPrefix("/database/") ? MarkSyncResponses.error(failure, requestID: requestID) : HubResponses.error(failure, requestID: requestID)
    }

    /// The answer to `failure` made outside the router: in the shape of the API `path` falls
    /// under, with a fresh request id and the hub's CORS headers, as the router would give it.
    static func answerOutsideRouter(_ failure: ServerError, path: String) -> Response {
        let requestID = MarkSyncIdentifier.random()
        var response = answer(failure, path: path, requestID: requestID)
        response.headers[requestIDHeader] = requestID
        response.headers.append(contentsOf: HubHTTPMiddleware<Context>.corsHeaders)
        return response
    }
}
