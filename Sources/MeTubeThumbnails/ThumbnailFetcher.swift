import AsyncHTTPClient
import Foundation
import NIOCore

/// Fetches thumbnails into a ``ThumbnailCache`` in the background: the rows the user sees and the
/// next page, newest wish first, at most ``maxInFlight`` requests at a time, each with validators
/// (conditional GET) and a time limit that also cuts a server that stalls or drips. Only a picture
/// that decodes is cached; a failure is retried later, with a growing delay, never on every key.
public actor ThumbnailFetcher {
    /// One thumbnail to fetch.
    public struct Request: Sendable, Hashable {
        /// The video.
        public var videoID: String
        /// The address (see ``ThumbnailAddress``).
        public var url: String

        /// A request for `videoID`'s thumbnail at `url`.
        public init(videoID: String, url: String) {
            self.videoID = videoID
            self.url = url
        }
    }

    /// How a fetch ended: `nil` when the cache now holds a good picture.
    public typealias Completion = @Sendable (_ videoID: String, _ failure: ThumbnailError?) -> Void

    /// The most requests at a time.
    public nonisolated let maxInFlight: Int
    /// How long one request may take, from connecting to the body's last byte.
    public nonisolated let timeLimit: Duration
    private let cache: ThumbnailCache
    private let decoder: JPEGDecoder
    private let httpClient: HTTPClient
    private let completion: Completion
    private var queue: [Request] = []
    private var inFlight: Set<String> = []
    private var checked: Set<String> = []
    private var failures: [String: Failure] = [:]

    private struct Failure {
        var attempts: Int
        var retryAt: ContinuousClock.Instant
        var reason: ThumbnailError
    }

    /// A fetcher into `cache`; `completion` hears of every fetch that ends.
    public init(
        cache: ThumbnailCache, decoder: JPEGDecoder = JPEGDecoder(), httpClient: HTTPClient = .shared, maxInFlight: Int = 8,
        timeLimit: Duration = .seconds(10), completion: @escaping Completion
    ) {
        self.cache = cache
        self.decoder = decoder
        self.httpClient = httpClient
        self.maxInFlight = max(maxInFlight, 1)
        self.timeLimit = timeLimit
        self.completion = completion
    }

    /// Replaces what is waiting with `requests`, most wanted first. A thumbnail already checked
    /// this session, in flight, or failing and not yet due again is left out.
    public func want(_ requests: [Request]) {
        let now = ContinuousClock.now
        var seen: Set<String> = []
        queue = requests.filter { request in
            guard seen.insert(request.videoID).inserted, !inFlight.contains(request.videoID), !checked.contains(request.videoID) else { return false }
            return failures[request.videoID].map { $0.retryAt <= now } ?? true
        }
        startWaiting()
    }

    /// Why `videoID`'s last fetch failed, while it waits to be tried again.
    public func failure(of videoID: String) -> ThumbnailError? { failures[videoID]?.reason }

    /// Requests running now.
    public var inFlightCount: Int { inFlight.count }

    private func startWaiting() {
        while inFlight.count < maxInFlight, !queue.isEmpty {
            let request = queue.removeFirst()
            inFlight.insert(request.videoID)
            Task {
                let failure = await self.fetch(request)
                self.finish(request, failure: failure)
            }
        }
    }

    private func finish(_ request: Request, failure: ThumbnailError?) {
        inFlight.remove(request.videoID)
        if let failure {
            let attempts = (failures[request.videoID]?.attempts ?? 0) + 1
            let delay = Duration.seconds(min(30 << min(attempts - 1, 7), 3_600))
            failures[request.videoID] = Failure(attempts: attempts, retryAt: .now + delay, reason: failure)
        } else {
            failures[request.videoID] = nil
            checked.insert(request.videoID)
        }
        completion(request.videoID, failure)
        startWaiting()
    }

    private func fetch(_ request: Request) async -> ThumbnailError? {
        let cached = await cache.read(request.videoID)
        var http = HTTPClientRequest(url: request.url)
        http.headers.add(name: "User-Agent", value: "metube")
        if let etag = cached?.etag { http.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = cached?.lastModified { http.headers.add(name: "If-Modified-Since", value: lastModified) }
        let answer: (status: Int, etag: String?, lastModified: String?, body: [UInt8])
        do {
            answer = try await withinTimeLimit { [httpClient, decoder, timeLimit, http] in
                let response = try await httpClient.execute(http, deadline: .now() + .nanoseconds(Int64(timeLimit.components.seconds) * 1_000_000_000))
                var body = ByteBuffer()
                for try await chunk in response.body {
                    guard body.readableBytes + chunk.readableBytes <= decoder.byteLimit else {
                        throw ThumbnailError.tooManyBytes(count: body.readableBytes + chunk.readableBytes, limit: decoder.byteLimit)
                    }
                    body.writeImmutableBuffer(chunk)
                }
                let validator = { (name: String) in response.headers.first(name: name).flatMap { $0.utf8.count <= 256 && !$0.contains("\n") ? $0 : nil } }
                return (Int(response.status.code), validator("ETag"), validator("Last-Modified"), Array(body.readableBytesView))
            }
        } catch let error as ThumbnailError {
            return error
        } catch {
            return .unreachable(String(describing: error))
        }
        if answer.status == 304, cached != nil { return nil }
        guard answer.status == 200 else { return .httpStatus(answer.status) }
        do throws(ThumbnailError) {
            _ = try decoder.decode(answer.body)
            try await cache.store(CachedThumbnail(bytes: answer.body, etag: answer.etag, lastModified: answer.lastModified), for: request.videoID)
            return nil
        } catch {
            return error
        }
    }

    /// Runs `work`, cancelling it when the time limit passes first.
    private func withinTimeLimit<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask { [timeLimit] in
                try await Task.sleep(for: timeLimit)
                throw ThumbnailError.unreachable("no complete answer within \(timeLimit.components.seconds) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw ThumbnailError.unreachable("cancelled") }
            return value
        }
    }
}
