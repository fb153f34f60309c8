import AsyncHTTPClient
import Foundation
import Logging
import MeTubeServer
import NIOCore

/// Hub server figures: `videos/query` throughput and latency with 100 concurrent connections,
/// against a release `metube-server` application in this process holding the demo library
/// (216 channels, 10,000 videos) in an SQLite file. The load comes from AsyncHTTPClient in the same
/// process, so it competes with the server for the same two cores.
func hubFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-hub-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "hub-bench")
    logger.logLevel = .error
    let configuration = ServerConfiguration(
        databasePath: folder.appendingPathComponent("hub.sqlite").path, pollInterval: nil, demo: true,
        demoInterval: .seconds(86_400), logger: logger, onListening: { _, port in portContinuation.yield(port) }
    )
    let app = try await buildApplication(configuration: configuration)
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    guard let port = await ports.first(where: { _ in true }) else { return [] }

    let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 100))
    )
    defer { _ = client.shutdown() }
    let url = "http://127.0.0.1:\(port)/api/videos/query"
    var figures: [Figure] = []
    for (name, body) in [
        ("hub.query.nothing-new", "{\"afterSeq\":10000}"),
        ("hub.query.page-100", "{\"afterSeq\":5000,\"limit\":100}"),
    ] {
        let result = try await load(client: client, url: url, body: body, connections: 100, duration: .seconds(5))
        figures.append(Figure(name: "\(name).throughput", value: result.requestsPerSecond, unit: "req/s", goal: ">= 5000", detail: "100 connections, 5 s, \(result.errors) errors, in-process client"))
        figures.append(Figure(name: "\(name).p99", value: result.p99Millis, unit: "ms", detail: "p50 \(String(format: "%.2f", result.p50Millis)) ms"))
    }
    return figures
}

/// The outcome of one load run.
private struct LoadResult {
    var requestsPerSecond: Double
    var p50Millis: Double
    var p99Millis: Double
    var errors: Int
}

/// Sends `body` to `url` from `connections` concurrent loops for `duration` (after a 1 s warm-up).
private func load(client: HTTPClient, url: String, body: String, connections: Int, duration: Duration) async throws -> LoadResult {
    let warmUpEnds = ContinuousClock.now + .seconds(1)
    let deadline = warmUpEnds + duration
    let (samples, errors) = await withTaskGroup(of: (latencies: [Double], errors: Int).self) { group in
        for _ in 0..<connections {
            group.addTask {
                var latencies: [Double] = []
                var errors = 0
                while ContinuousClock.now < deadline {
                    var request = HTTPClientRequest(url: url)
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: body))
                    let start = ContinuousClock.now
                    do {
                        let response = try await client.execute(request, timeout: .seconds(10))
                        _ = try await response.body.collect(upTo: 4 << 20)
                        if response.status != .ok { errors += 1 }
                    } catch {
                        errors += 1
                    }
                    if start >= warmUpEnds { latencies.append((ContinuousClock.now - start).milliseconds) }
                }
                return (latencies, errors)
            }
        }
        var all: ([Double], Int) = ([], 0)
        for await part in group {
            all.0 += part.latencies
            all.1 += part.errors
        }
        return all
    }
    return LoadResult(
        requestsPerSecond: Double(samples.count) / (Double(duration.components.seconds)),
        p50Millis: Measure.percentile(samples, 50), p99Millis: Measure.percentile(samples, 99),
        errors: errors
    )
}
