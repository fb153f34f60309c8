import Foundation
import Hummingbird
import Logging
import MeTubeCore
import NIOCore
import Synchronization

/// Answers every request within a deadline of the server's own time.
///
/// The request's body is read whole first (up to `maxBodyBytes`), while the connection's
/// ``SlowClientGuard`` times the client; then the handler runs with `deadline` to answer. A
/// handler past it is left to finish on its own (its answer is dropped; every write of the APIs is
/// safe to repeat), and the client gets a 503 with a reason and `Retry-After` in the shape of the
/// API the path falls under, never a silently closed connection.
struct HandlerDeadlineResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: RequestContext {
    typealias Context = Inner.Context

    /// The seconds a client is asked to wait before retrying an answer that missed the deadline.
    static var retryAfterSeconds: Int { 5 }

    let inner: Inner
    let deadline: Duration
    let maxBodyBytes: Int

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBodyBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return ServerErrorMiddleware<Context>.answerOutsideRouter(.payloadTooLarge(limit: maxBodyBytes), path: request.uri.path)
        } catch is NIOTooManyBytesError {
            return ServerErrorMiddleware<Context>.answerOutsideRouter(.payloadTooLarge(limit: maxBodyBytes), path: request.uri.path)
        }
        let race = HandlerRace()
        let inner = inner
        let received = request
        let deadline = deadline
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation,
                    handler: Task {
                        do {
                            race.finish(with: .success(try await inner.respond(to: received, context: context)))
                        } catch {
                            race.finish(with: .failure(error))
                        }
                    },
                    timer: Task {
                        guard (try? await Task.sleep(for: deadline)) != nil else { return }
                        let seconds = deadline.seconds
                        let reason = "The server could not answer within \(String(format: "%g", seconds)) s; try again later"
                        let answer = ServerErrorMiddleware<Context>.answerOutsideRouter(.unavailable(reason, retryAfter: Self.retryAfterSeconds), path: received.uri.path)
                        if race.finish(with: .success(answer)) {
                            context.logger.warning("a handler missed its deadline; answered 503", metadata: [
                                "method": "\(received.method)", "path": "\(received.uri.path)", "deadline": "\(deadline)",
                            ])
                        }
                    }
                )
            }
        } onCancel: {
            race.cancel()
        }
    }
}

/// The handler and the deadline of one request: whichever finishes first answers, and the other
/// is cancelled.
private final class HandlerRace: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Response, any Error>?
        var pending: Result<Response, any Error>?
        var tasks: [Task<Void, Never>] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Starts waiting with `continuation` for the first of `handler` and `timer`.
    func start(_ continuation: CheckedContinuation<Response, any Error>, handler: Task<Void, Never>, timer: Task<Void, Never>) {
        let ready: Result<Response, any Error>? = state.withLock { state in
            state.tasks = [handler, timer]
            guard let pending = state.pending else {
                state.continuation = continuation
                return nil
            }
            return pending
        }
        guard let ready else { return }
        handler.cancel()
        timer.cancel()
        continuation.resume(with: ready)
    }

    /// Answers with `result` unless another answer came first; whether this one was first.
    @discardableResult
    func finish(with result: Result<Response, any Error>) -> Bool {
        let (first, continuation, tasks) = state.withLock { state -> (Bool, CheckedContinuation<Response, any Error>?, [Task<Void, Never>]) in
            guard !state.finished else { return (false, nil, []) }
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.pending = result }
            return (true, continuation, state.tasks)
        }
        guard first else { return false }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
        return true
    }

    /// Cancels both and stops waiting: the client has gone.
    func cancel() {
        finish(with: .failure(CancellationError()))
    }
}
