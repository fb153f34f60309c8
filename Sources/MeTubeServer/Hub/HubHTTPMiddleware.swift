import Hummingbird

/// The hub's HTTP conventions for every request: permissive CORS headers on every answer, errors
/// included (it runs outside ``ServerErrorMiddleware``), and `204` for any `OPTIONS`.
struct HubHTTPMiddleware<Context: RequestContext>: RouterMiddleware {
    static var corsHeaders: HTTPFields {
        [
            .accessControlAllowOrigin: "*",
            .accessControlAllowHeaders: "Content-Type, Authorization",
            .accessControlAllowMethods: "GET,POST,OPTIONS",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            return Response(status: .noContent, headers: Self.corsHeaders)
        }
        var response = try await next(request, context)
        response.headers.append(contentsOf: Self.corsHeaders)
        return response
    }
}
