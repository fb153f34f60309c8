import Foundation
import Hummingbird
import MeTubeAPI
import MeTubeCore
import NIOCore
import Synchronization

/// Injects faults in front of the mark-sync routes: plain 500s, THROTTLED with a short
/// `retryAfter`, requests applied and then answered 503 (a lost acknowledgement), and requests
/// applied and then answered with a truncated body. Seeded, so a failing run can be repeated.
final class MarkSyncFaultInjector: RouterMiddleware, Sendable {
    typealias Context = BasicRequestContext

    private let random: Mutex<SplitMix64>
    private let rate: Double
    private let enabled = Mutex(true)

    /// Faults `rate` (0…1) of the requests, chosen by a generator seeded with `seed`.
    init(seed: UInt64, rate: Double) {
        self.random = Mutex(SplitMix64(seed: seed))
        self.rate = rate
    }

    /// Whether faults are injected; off lets the final convergence run cleanly.
    var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let fault: Int? = random.withLock { random in
            guard isEnabled, Double(random.next() % 1000) / 1000 < rate else { return nil }
            return Int(random.next() % 4)
        }
        switch fault {
        case 0?:
            return Response(status: .internalServerError, body: ResponseBody(byteBuffer: ByteBuffer(string: "oops")))
        case 1?:
            let body = try JSONEncoder().encode(MarkSyncErrorBody(.throttled, "slow down", retryAfter: 0.01))
            return Response(status: .tooManyRequests, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        case 2?:
            _ = try await next(request, context)
            return Response(status: .serviceUnavailable)
        case 3?:
            _ = try await next(request, context)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"records":[{"recordNa"#)))
        default:
            return try await next(request, context)
        }
    }
}
