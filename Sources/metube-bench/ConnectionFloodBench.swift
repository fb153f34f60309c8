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
/// no address is past its cap and only the server-wide idle cap stands). Then 20 users behind one
/// address (issue 37): 1,000 silent connections from 127.0.0.1, the address the users' requests
/// come from too. Goal: p99 ≤ 100 ms and no failed request.
func connectionFloodFigures() async throws -> [Figure] {
    raiseFileLimit()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-flood-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let server = try await ServerProcess.start(databasePath: folder.appendingPathComponent("server.sqlite").path)
    defer { server.stop() }
    guard let port = server.baseURL.split(separator: ":").last.flatMap({ Int($0) }) else { throw BenchFailure("no port in \(server.baseURL)") }
    let oneAddress = try await floodFigures(server: server, port: port, label: "one-address", sources: ["127.0.0.2"])
    let spread = try await floodFigures(server: server, port: port, label: "20-addresses", sources: (1...20).map { "127.0.1.\($0)" })
    let sharedAddress = try await floodFigures(
        server: server, port: port, label: "shared-address", sources: ["127.0.0.1"], connections: 1_000, users: 20)
    return oneAddress + spread + sharedAddress
}

/// The probes' figures while `connections` silent connections from `sources` are held against
/// `server`; the 200 probes are sent by `users` clients at once (all from 127.0.0.1).
private func floodFigures(
    server: ServerProcess, port: Int, label: String, sources: [String], connections: Int = 2_000, users: Int = 1
) async throws -> [Figure] {
    let channelIDs = String(decoding: try JSONEncoder().encode(SyntheticLibrary(markCount: 0).channels().map(\.id)), as: UTF8.self)
    let firstPage = "{\"channelIds\":\(channelIDs),\"afterSeq\":0,\"limit\":100}"
    let flood = SilentFlood(port: port, sources: sources)
    flood.start(connections: connections)
    defer { flood.stop() }
    let started = ContinuousClock.now
    while flood.opened < connections, ContinuousClock.now - started < .seconds(30) { try await Task.sleep(for: .milliseconds(50)) }
    try await Task.sleep(for: .seconds(2))

    let openedBefore = flood.opened
    let probeStart = ContinuousClock.now
    let probes = await withTaskGroup(of: [(path: String, millis: Double?)].self) { group in
        for _ in 0..<users {
            group.addTask {
                var probes: [(path: String, millis: Double?)] = []
                for _ in 0..<(200 / users) {
                    for (path, body) in [(HubAPI.healthPath, nil), (HubAPI.videoQueryPath, firstPage)] as [(String, String?)] {
                        let start = ContinuousClock.now
                        let answered = await newClientRequest(server.baseURL + path, body: body)
                        probes.append((path, answered ? (ContinuousClock.now - start).milliseconds : nil))
                    }
                }
                return probes
            }
        }
        return await group.reduce(into: []) { $0 += $1 }
    }
    let health = probes.filter { $0.path == HubAPI.healthPath }.map { $0.millis ?? .infinity }
    let query = probes.filter { $0.path != HubAPI.healthPath }.map { $0.millis ?? .infinity }
    let failures = probes.filter { $0.millis == nil }.count
    let seconds = (ContinuousClock.now - probeStart).milliseconds / 1000
    let reopened = Double(flood.opened - openedBefore) / max(seconds, 0.001)
    let detail = "\(connections) silent connections from \(sources.count == 1 ? sources[0] : "\(sources.count) addresses"), \(flood.held) held at the end, "
        + "reopened at \(Int(reopened))/s while probing; 200 probes from \(users) client\(users == 1 ? "" : "s") at once, each on a new connection, \(failures) failed"
    return [
        Figure(name: "server.flood.\(label).health.p99", value: Measure.percentile(health, 99), unit: "ms", goal: "<= 100",
               detail: "p50 \(String(format: "%.2f", Measure.median(health))) ms; " + detail),
        Figure(name: "server.flood.\(label).query.p99", value: Measure.percentile(query, 99), unit: "ms", goal: "<= 100",
               detail: "216 channelIds, 100-video page, p50 \(String(format: "%.2f", Measure.median(query))) ms; over \(String(format: "%.1f", seconds)) s"),
        Figure(name: "server.flood.\(label).failures", value: Double(failures), unit: "requests", goal: "= 0", detail: detail),
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
