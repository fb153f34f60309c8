import Foundation
import Hummingbird
import Synchronization
import TestSupport

/// A loopback image server in the shapes thumbnails come in, good and hostile: a JPEG with an
/// ETag that answers 304 to it, an HTML error page with status 200, a 500, a server that stalls
/// and one that drips. It counts requests and the most it served at once.
final class ThumbnailStubServer: Sendable {
    let service: BackgroundService
    let url: String
    private let counters: Counters

    final class Counters: Sendable {
        private let state = Mutex<(requests: Int, running: Int, mostRunning: Int, notModified: Int)>((0, 0, 0, 0))
        func started() { state.withLock { $0.requests += 1; $0.running += 1; $0.mostRunning = max($0.mostRunning, $0.running) } }
        func ended() { state.withLock { $0.running -= 1 } }
        func answeredNotModified() { state.withLock { $0.notModified += 1 } }
        var requests: Int { state.withLock { $0.requests } }
        var mostRunning: Int { state.withLock { $0.mostRunning } }
        var notModified: Int { state.withLock { $0.notModified } }
    }

    /// Requests served.
    var requests: Int { counters.requests }
    /// The most requests served at once.
    var mostRunning: Int { counters.mostRunning }
    /// 304 answers given.
    var notModified: Int { counters.notModified }

    private init(service: BackgroundService, url: String, counters: Counters) {
        self.service = service
        self.url = url
        self.counters = counters
    }

    /// Starts serving `jpeg`; each good answer is held for `delay` so concurrency shows.
    static func start(jpeg: [UInt8], delay: Duration = .zero) async -> ThumbnailStubServer {
        let counters = Counters()
        let router = Router()
        router.get("good/:id") { request, _ -> Response in
            counters.started()
            defer { counters.ended() }
            if delay > .zero { try await Task.sleep(for: delay) }
            if request.headers[.ifNoneMatch] == "\"v1\"" {
                counters.answeredNotModified()
                return Response(status: .notModified)
            }
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .eTag: "\"v1\""], body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        router.get("html/:id") { _, _ -> Response in
            counters.started()
            defer { counters.ended() }
            let page = "<!DOCTYPE html><html><body>Service Unavailable</body></html>"
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }
        router.get("fail/:id") { _, _ -> Response in
            counters.started()
            defer { counters.ended() }
            return Response(status: .internalServerError)
        }
        router.get("stall/:id") { _, _ -> Response in
            counters.started()
            defer { counters.ended() }
            try await Task.sleep(for: .seconds(60))
            return Response(status: .ok)
        }
        router.get("drip/:id") { _, _ -> Response in
            counters.started()
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody { writer in
                defer { counters.ended() }
                for byte in jpeg {
                    try await writer.write(ByteBuffer(bytes: [byte]))
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await writer.finish(nil)
            })
        }
        let (service, url) = await BackgroundService.serve(router, label: "thumbnail-stub")
        return ThumbnailStubServer(service: service, url: url, counters: counters)
    }
}
