import Hummingbird

/// Gives each request ``StorageDeadline/request`` for all of its storage work: every database
/// call and turn the request waits for ends by then (see ``StorageDeadline``).
struct StorageDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await StorageDeadline.$requestEnd.withValue(.now + StorageDeadline.request) {
            try await next(request, context)
        }
    }
}
