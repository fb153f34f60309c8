import Foundation
import Hummingbird
import Synchronization

/// A loopback server of one generated video, as a site yt-dlp's generic extractor downloads
/// directly: `GET /v/NAME.mp4` answers the video (`video/mp4`, with `Range` support) for the
/// names it serves and 404 for the others. It can stop sending halfway through a whole-file
/// answer, for a download to be killed mid-way and resumed.
public final class MediaServer: Sendable {
    /// A 5-second `testsrc` video with a tone, made once per test run with ffmpeg.
    public static let sampleVideo: Data = {
        let directory = TemporaryDirectory("metube-media")
        defer { directory.remove() }
        let file = directory.path("sample.mp4")
        let outcome = try? runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"), [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=5:size=320x240:rate=25", "-f", "lavfi", "-i", "sine=duration=5",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", "-movflags", "+faststart", file,
        ])
        precondition(outcome?.status == 0, "ffmpeg could not make the sample video: \(outcome?.stderr ?? "not run")")
        return FileManager.default.contents(atPath: file) ?? Data()
    }()

    /// The base URL, e.g. `http://127.0.0.1:54321`.
    public let url: String
    private let service: BackgroundService
    private let state: State

    private final class State: Sendable {
        let served: Set<String>
        /// Bytes of a whole-file answer sent before it stops (for a while); `nil` sends all.
        let holdAfter = Mutex<Int?>(nil)
        /// Bytes a second every answer is sent at; `nil` sends as fast as it can.
        let rate = Mutex<Int?>(nil)
        /// The first byte of every ranged request, in order.
        let rangeStarts = Mutex<[Int]>([])

        init(served: Set<String>) { self.served = served }
    }

    private init(url: String, service: BackgroundService, state: State) {
        self.url = url
        self.service = service
        self.state = state
    }

    /// The URL template for `[download] url-template`.
    public var urlTemplate: String { url + "/v/{videoId}.mp4" }

    /// The first byte asked for by each ranged request so far.
    public var rangeStarts: [Int] { state.rangeStarts.withLock { $0 } }

    /// Whole-file answers from now on stop after `bytes` (and end 20 s later); `nil` sends all.
    public func hold(after bytes: Int?) { state.holdAfter.withLock { $0 = bytes } }

    /// Every answer from now on is sent at `bytesPerSecond` (a tenth of it every 100 ms), for
    /// downloads that stay running; `nil` sends as fast as it can.
    public func throttle(bytesPerSecond: Int?) { state.rate.withLock { $0 = bytesPerSecond.map { max(10, $0) } } }

    /// Stops serving.
    public func stop() { service.stop() }

    /// Serves ``sampleVideo`` as `/v/NAME.mp4` for each of `names`.
    public static func start(serving names: Set<String>) async -> MediaServer {
        let video = sampleVideo
        let state = State(served: names)
        let router = Router()
        router.get("/v/:file") { request, context -> Response in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".mp4"), state.served.contains(String(file.dropLast(4))) else {
                return Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "Not Found")))
            }
            let start = request.headers[.range].flatMap(Self.rangeStart) ?? 0
            guard start < video.count else { return Response(status: .rangeNotSatisfiable) }
            if request.headers[.range] != nil { state.rangeStarts.withLock { $0.append(start) } }
            let body = video[start...]
            var headers: HTTPFields = [.contentType: "video/mp4", .acceptRanges: "bytes", .contentLength: String(body.count)]
            if start > 0 { headers[.contentRange] = "bytes \(start)-\(video.count - 1)/\(video.count)" }
            let hold = start == 0 ? state.holdAfter.withLock { $0 } : nil
            let rate = state.rate.withLock { $0 }
            return Response(status: start > 0 ? .partialContent : .ok, headers: headers, body: ResponseBody(contentLength: body.count) { writer in
                if let rate {
                    for chunk in stride(from: body.startIndex, to: body.endIndex, by: rate / 10) {
                        try await writer.write(ByteBuffer(bytes: body[chunk..<min(chunk + rate / 10, body.endIndex)]))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    return try await writer.finish(nil)
                }
                let first = hold.map { min($0, body.count) } ?? body.count
                try await writer.write(ByteBuffer(bytes: body.prefix(first)))
                if first < body.count {
                    try await Task.sleep(for: .seconds(20))
                    try await writer.write(ByteBuffer(bytes: body.dropFirst(first)))
                }
                try await writer.finish(nil)
            })
        }
        let (service, url) = await BackgroundService.serve(router, label: "media-server")
        return MediaServer(url: url, service: service, state: state)
    }

    /// The first byte of a `bytes=N-` range.
    private static func rangeStart(_ header: String) -> Int? {
        guard header.hasPrefix("bytes=") else { return nil }
        return Int(header.dropFirst(6).prefix { $0 != "-" })
    }
}
