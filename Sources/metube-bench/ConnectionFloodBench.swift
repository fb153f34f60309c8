import AsyncHTTPClient
import Foundation
import MeTubeAPI
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Connection-flood figures (issue 23, item 3), against a release `metube-server` child on the
/// demo library (216 channels, 10,000 videos) with its default connection limits: while 2,000
/// silent TCP connections are held open, each reopened as soon as the server closes it, a new
/// client on another address (127.0.0.1) asks for `/health` and for the sync's first
/// `videos/query` page (216 channel ids, 100 videos), each request on a connection of its own.
/// Twice: the flood from one address (127.0.0.2), then spread over 20 (127.0.1.1…20, 100 each, so
/// no address is past its cap and only the server-wide idle cap stands). Goal: p99 ≤ 100 ms.
func connectionFloodFigures() async throws -> [Figure] {
    raiseFileLimit()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-flood-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let server = try await ServerChild.start(databasePath: folder.appendingPathComponent("server.sqlite").path)
    defer { server.stop() }
    guard let port = server.baseURL.split(separator: ":").last.flatMap({ Int($0) }) else { throw BenchFailure("no port in \(server.baseURL)") }
    let oneAddress = try await floodFigures(server: server, port: port, label: "one-address", sources: ["127.0.0.2"])
    let spread = try await floodFigures(server: server, port: port, label: "20-addresses", sources: (1...20).map { "127.0.1.\($0)" })
    return oneAddress + spread
}

/// The probes' figures while 2,000 silent connections from `sources` are held against `server`.
private func floodFigures(server: ServerChild, port: Int, label: String, sources: [String]) async throws -> [Figure] {
    let channelIDs = String(decoding: try JSONEncoder().encode(SyntheticLibrary(markCount: 0).channels().map(\.id)), as: UTF8.self)
    let firstPage = "{\"channelIds\":\(channelIDs),\"afterSeq\":0,\"limit\":100}"
    let flood = SilentFlood(port: port, sources: sources)
    flood.start(connections: 2_000)
    defer { flood.stop() }
    let started = ContinuousClock.now
    while flood.opened < 2_000, ContinuousClock.now - started < .seconds(30) { try await Task.sleep(for: .milliseconds(50)) }
    try await Task.sleep(for: .seconds(2))

    var health: [Double] = []
    var query: [Double] = []
    var failures = 0
    let openedBefore = flood.opened
    let probeStart = ContinuousClock.now
    for _ in 0..<200 {
        for (path, body) in [(HubAPI.healthPath, nil), (HubAPI.videoQueryPath, firstPage)] as [(String, String?)] {
            let start = ContinuousClock.now
            let answered = await newClientRequest(server.baseURL + path, body: body)
            let millis = (ContinuousClock.now - start).milliseconds
            if !answered { failures += 1 }
            if body == nil { health.append(answered ? millis : .infinity) } else { query.append(answered ? millis : .infinity) }
        }
    }
    let seconds = (ContinuousClock.now - probeStart).milliseconds / 1000
    let reopened = Double(flood.opened - openedBefore) / max(seconds, 0.001)
    let detail = "2,000 silent connections from \(sources.count) address\(sources.count == 1 ? "" : "es"), \(flood.held) held at the end, "
        + "reopened at \(Int(reopened))/s while probing; 200 probes each on a new connection, \(failures) failed"
    return [
        Figure(name: "server.flood.\(label).health.p99", value: Measure.percentile(health, 99), unit: "ms", goal: "<= 100",
               detail: "p50 \(String(format: "%.2f", Measure.median(health))) ms; " + detail),
        Figure(name: "server.flood.\(label).query.p99", value: Measure.percentile(query, 99), unit: "ms", goal: "<= 100",
               detail: "216 channelIds, 100-video page, p50 \(String(format: "%.2f", Measure.median(query))) ms; over \(String(format: "%.1f", seconds)) s"),
    ]
}

/// One request from a new client: a connection of its own (`Connection: close`), 5 s at most
/// (the server's header timeout); whether it was answered 200.
private func newClientRequest(_ url: String, body: String?) async -> Bool {
    var request = HTTPClientRequest(url: url)
    request.headers.add(name: "Connection", value: "close")
    if let body {
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
    }
    guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(5)),
          (try? await response.body.collect(upTo: 16 << 20)) != nil else { return false }
    return response.status == .ok
}

/// Raises this process's soft limit of open files to its hard limit (the flood and the server,
/// which inherits it, need thousands).
private func raiseFileLimit() {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}

/// TCP connections to 127.0.0.1 from the loopback addresses `sources` in turn that never send a
/// byte, each opened again as soon as it closes.
private final class SilentFlood: Sendable {
    private let port: Int
    private let sources: [String]
    private let stopped = Mutex(false)
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
    private let openedCount = Mutex(0)

    init(port: Int, sources: [String]) {
        self.port = port
        self.sources = sources
    }

    /// How many connections were opened so far.
    var opened: Int { openedCount.withLock { $0 } }

    /// How many connections are open now.
    var held: Int { channels.withLock { $0.count } }

    /// Opens `connections` connections, and keeps that many open until ``stop()``.
    func start(connections: Int) {
        for index in 0..<connections { open(from: sources[index % sources.count]) }
    }

    /// Closes every connection and opens no more.
    func stop() {
        stopped.withLock { $0 = true }
        for channel in channels.withLock({ $0.values }) { channel.close(promise: nil) }
    }

    private func open(from source: String) {
        guard !stopped.withLock({ $0 }) else { return }
        let bootstrap: ClientBootstrap
        do {
            bootstrap = try ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(to: SocketAddress(ipAddress: source, port: 0))
        } catch {
            return
        }
        bootstrap.connect(host: "127.0.0.1", port: port).whenComplete { result in
            switch result {
            case .success(let channel):
                let id = ObjectIdentifier(channel)
                self.channels.withLock { $0[id] = channel }
                self.openedCount.withLock { $0 += 1 }
                channel.closeFuture.whenComplete { _ in
                    self.channels.withLock { $0[id] = nil }
                    self.open(from: source)
                }
            case .failure:
                _ = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .milliseconds(20)) { self.open(from: source) }
            }
        }
    }
}
