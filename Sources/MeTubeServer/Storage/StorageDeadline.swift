import Synchronization

/// The ends of the server's waits for its database, so that no request waits for ever: a
/// database that does not answer in time fails the request with
/// ``ServerError/StorageFailure/unavailable(_:)``, which a client is told as 503 (`TRY_AGAIN_LATER`
/// on the mark-sync routes) with ``retryAfter``, and retries.
///
/// Each wait has its own deadline, and within a request (``StorageDeadlineMiddleware``) none
/// goes past the request's: all of a request's storage work ends within ``request``, which fits
/// inside the slow-client grace (`--request-grace`, 10 s by default), so the client gets the 503
/// rather than a cut connection.
enum StorageDeadline {
    /// The longest all the storage work of one request may take.
    static let request: Duration = .seconds(8)
    /// The longest one database call may take: a statement, or a PostgreSQL connection from the
    /// pool.
    static let call: Duration = .seconds(5)
    /// The longest a whole transaction may take, the wait for its connection, its statements and
    /// its commit included. This is for background work (ingestion, enrichment, leases), which a
    /// loaded machine may slow; within a request, the request's end comes first.
    static let transaction: Duration = .seconds(60)
    /// The longest a mark-sync write waits for its place in a group commit (``GroupCommit``).
    static let writeTurn: Duration = .seconds(8)
    /// The seconds a refused client is told to wait before it retries.
    static let retryAfter = 2

    /// When the current request's storage work must end; nil outside a request.
    @TaskLocal static var requestEnd: ContinuousClock.Instant?

    /// `timeout`, cut to what is left of the current request's time.
    static func limit(_ timeout: Duration) -> Duration {
        guard let requestEnd else { return timeout }
        return max(.zero, min(timeout, requestEnd - .now))
    }

    /// The error of a database that did not answer `what` within `timeout`.
    static func expired(_ what: String, after timeout: Duration) -> ServerError {
        unavailable("the database did not answer \(what) within \(timeout)")
    }

    /// The error of a database that is unavailable for `reason` (told to the client, so it names
    /// no host or secret), counted in ``StorageAvailabilityMetrics/refused``.
    static func unavailable(_ reason: String) -> ServerError {
        StorageAvailabilityMetrics.refused.increment()
        return .storage(.unavailable(reason))
    }

    /// Runs `body` and returns what it returns, or throws ``expired(_:after:)`` once `timeout` (cut
    /// to what is left of the request's time) has passed without an answer: then it cancels
    /// `body` and calls `onTimeout` (which may close a connection `body` waits on). The caller is
    /// answered at the deadline even when `body` ignores its cancellation; what `body` still does
    /// after that is not waited for. A cancelled caller cancels `body`.
    static func run<T: Sendable>(
        _ what: String, within timeout: Duration, onTimeout: @escaping @Sendable () -> Void = {}, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let timeout = limit(timeout)
        let race = DeadlineRace<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation: continuation,
                    work: Task { race.finish(with: await Result(catching: body)) },
                    timer: Task {
                        try? await Task.sleep(for: timeout)
                        guard !Task.isCancelled, race.finish(with: .failure(expired(what, after: timeout))) else { return }
                        onTimeout()
                    })
            }
        } onCancel: {
            race.cancelWork()
        }
    }
}

/// The two ends of one ``StorageDeadline/run(_:within:onTimeout:_:)``: whichever of the work
/// and the timer finishes first answers the caller and cancels the other.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var pending: Result<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var isCancelled = false
    }

    private let state = Mutex(State())

    /// Hands over the caller and the two tasks; answers at once when one of them already finished.
    func start(continuation: CheckedContinuation<T, any Error>, work: Task<Void, Never>, timer: Task<Void, Never>) {
        let (answer, isCancelled) = state.withLock { state -> (Result<T, any Error>?, Bool) in
            state.work = work
            state.timer = timer
            guard let pending = state.pending else {
                state.continuation = continuation
                return (nil, state.isCancelled)
            }
            return (pending, false)
        }
        if isCancelled { work.cancel() }
        if let answer {
            work.cancel()
            timer.cancel()
            continuation.resume(with: answer)
        }
    }

    /// Answers the caller with `result` unless it was answered; returns whether this answered.
    @discardableResult
    func finish(with result: Result<T, any Error>) -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>])? in
            guard state.pending == nil else { return nil }
            state.pending = result
            let tasks = [state.work, state.timer].compactMap { $0 }
            defer { state.continuation = nil }
            return (state.continuation, tasks)
        }
        guard let (continuation, tasks) = taken else { return false }
        tasks.forEach { $0.cancel() }
        continuation?.resume(with: result)
        return true
    }

    /// Cancels the work (its caller was cancelled).
    func cancelWork() {
        let work = state.withLock { state in
            state.isCancelled = true
            return state.work
        }
        work?.cancel()
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
