import Hummingbird
import MeTubeAPI

/// The hub's HTTP conventions for every request: permissive CORS headers on every answer,
/// `204` for any `OPTIONS`, exact paths (no trailing-slash normalisation), plain `not found` for
/// unknown routes, and `ServerError`s rendered as their documented bodies.
struct HubHTTPMiddleware<Context: RequestContext>: RouterMiddleware {
    static var corsHeaders: HTTPFields {
        [
            .accessControlAllowOrigin: "*",
            .accessControlAllowHeaders: "Content-Type",
            .accessControlAllowMethods: "GET,POST,OPTIONS",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            return Response(status: .noContent, headers: Self.corsHeaders)
        }
        var response: Response
        do {
            let path = request.uri.path
            guard path == "/" || !path.hasSuffix("/") else { throw ServerError.notFound }
            response = try await next(request, context)
        } catch let error as ServerError {
            if case .storage(let detail) = error {
                context.logger.error("storage failure", metadata: ["detail": "\(detail)", "path": "\(request.uri.path)"])
            }
            response = try error.response(from: request, context: context)
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            response = try ServerError.notFound.response(from: request, context: context)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            response = try ServerError.payloadTooLarge(limit: HubAPI.maxBodyBytes).response(from: request, context: context)
        }
        response.headers.append(contentsOf: Self.corsHeaders)
        return response
    }
}
