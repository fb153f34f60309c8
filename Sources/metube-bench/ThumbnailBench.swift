import Foundation
import Hummingbird
import MeTubeThumbnails
import TestSupport

/// The thumbnail figures of issue 22: decoding, scaling and drawing one 320×180 JPEG into a
/// 40×12-cell canvas, and the first screen of thumbnails fetched from a loopback server and drawn.
func thumbnailFigures() async throws -> [Figure] {
    let jpeg = try JPEGEncoder.encode(benchThumbnail(seed: 1), quality: 85)
    let decoder = JPEGDecoder()
    let renderer = SymbolRenderer(colors: .direct)
    var samples: [Double] = []
    for _ in 0..<300 {
        samples.append(try Measure.millis { _ = try renderer.render(try decoder.decode(jpeg), columns: 40, rows: 12) })
    }
    var figures = [
        Figure(name: "thumbnail.draw.40x12.median", value: Measure.median(samples), unit: "ms", goal: "<= 5 ms",
               detail: "decode + scale + draw a 320x180 JPEG (\(jpeg.count) B), median of \(samples.count)"),
        Figure(name: "thumbnail.draw.40x12.p99", value: Measure.percentile(samples, 99), unit: "ms", detail: "p99 of \(samples.count)"),
    ]
    figures += try pixelFigures(jpeg)
    figures.append(try await firstScreenFigure())
    return figures + (try await detailsPaneFigures())
}

/// The same JPEG decoded and drawn as kitty and sixel escapes over 40×12 cells of 10×20 pixels
/// (off the key path, like the symbols), and how many bytes each escape writes to the terminal.
private func pixelFigures(_ jpeg: [UInt8]) throws -> [Figure] {
    let decoder = JPEGDecoder()
    return try [PixelMode.kitty, .sixel].flatMap { mode -> [Figure] in
        let renderer = PixelRenderer(mode: mode, cellWidth: 10, cellHeight: 20)
        var samples: [Double] = []
        var bytes = 0
        for _ in 0..<100 {
            samples.append(try Measure.millis { bytes = try renderer.render(try decoder.decode(jpeg), columns: 40, rows: 12).escape.utf8.count })
        }
        return [
            Figure(name: "thumbnail.\(mode.rawValue).40x12.median", value: Measure.median(samples), unit: "ms",
                   detail: "decode + scale + \(mode.rawValue) escape of a 320x180 JPEG, median of \(samples.count)"),
            Figure(name: "thumbnail.\(mode.rawValue).40x12.bytes", value: Double(bytes), unit: "B", detail: "the escape written per picture"),
        ]
    }
}

/// 20 rows' thumbnails (a first screen of a 24-row terminal) fetched into an empty cache from a
/// loopback server, at most 8 at a time, then each drawn into the pane's 35×10 cells.
private func firstScreenFigure() async throws -> Figure {
    let pictures = try (0..<20).map { try JPEGEncoder.encode(benchThumbnail(seed: UInt32($0 + 2))) }
    let router = Router()
    router.get("vi/:index/mqdefault.jpg") { _, context -> Response in
        let index = Int(context.parameters.get("index") ?? "") ?? 0
        return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: pictures[index % pictures.count])))
    }
    let (service, url) = await BackgroundService.serve(router, label: "bench-thumbnails")
    defer { service.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bench-thumbnails-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = ThumbnailCache(directory: directory, byteLimit: 100 << 20)
    let drawing = ThumbnailDrawing(renderer: SymbolRenderer(colors: .indexed256))
    let (done, finished) = AsyncStream.makeStream(of: String.self)
    let fetcher = ThumbnailFetcher(cache: cache) { videoID, _ in finished.yield(videoID) }
    let ids = (0..<20).map { "bench\($0)" }
    let millis = await Measure.millis {
        await fetcher.want(ids.enumerated().map { .init(videoID: $0.element, url: "\(url)/vi/\($0.offset)/mqdefault.jpg") })
        var remaining = Set(ids)
        for await videoID in done {
            _ = await drawing.draw(videoID, from: cache, columns: 35, rows: 10)
            remaining.remove(videoID)
            if remaining.isEmpty { break }
        }
    }
    return Figure(name: "thumbnail.first-screen.loopback", value: millis, unit: "ms", goal: "<= 1000 ms",
                  detail: "20 thumbnails fetched (8 at a time) into an empty cache and drawn")
}

/// A 320×180 picture shaped like a thumbnail: a sky gradient, a ground, a disc and noise, so the
/// JPEG has the size and detail of a real one.
func benchThumbnail(seed: UInt32) -> RGBAImage {
    var state = seed &* 2_654_435_761
    var pixels = [UInt8](repeating: 255, count: 320 * 180 * 4)
    for y in 0..<180 {
        for x in 0..<320 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Int(state >> 27)
            let offset = (y * 320 + x) * 4
            let inDisc = (x - 220) * (x - 220) + (y - 60) * (y - 60) < 900
            let (red, green, blue) = inDisc ? (250, 210, 40) : y < 110 ? (40 + y, 90 + y, 200) : (30 + x / 8, 120 + x % 40, 40)
            pixels[offset] = UInt8(clamping: red + noise)
            pixels[offset + 1] = UInt8(clamping: green + noise)
            pixels[offset + 2] = UInt8(clamping: blue + noise)
        }
    }
    return RGBAImage(width: 320, height: 180, pixels: pixels)
}
