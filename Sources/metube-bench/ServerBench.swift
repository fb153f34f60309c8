import AsyncHTTPClient
import Foundation
import MeTubeAPI
import MeTubeServer
import NIOCore
import TestSupport

/// Server figures, on the requests real clients send, against a release `metube-server` run as
/// a child process (the one beside this executable) on an SQLite file, loaded by `wrk` (2 threads):
///
/// - `videos/query` as `metube sync` sends it: the 216 channel ids of the demo library (216
///   channels, 10,000 videos), `afterSeq` 0, mid-way and at the end, 100-video pages, 100
///   connections; the same with bodies the page cache does not hold; the same first page served
///   as a static file by nginx, when installed, and the ratio;
/// - `records/modify` with 200 records a request, and `changes/zone` 200-record pages, from 50
///   users on 50 connections;
/// - the server process's peak RSS under these loads (VmHWM from its `/proc/PID/status`).
///
/// Client and server share the machine's cores.
func serverFigures() async throws -> [Figure] {
    guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile) else {
        throw BenchFailure("the server suite needs wrk (`make deps` installs it)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-server-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let databasePath = folder.appendingPathComponent("server.sqlite").path
    let users = 50
    let tokens = try await addUsers(count: users, databasePath: databasePath)
    let server = try await ServerProcess.start(databasePath: databasePath)
    defer { server.stop() }
    let load = WrkLoad(wrk: wrk, folder: folder, baseURL: server.baseURL)

    var figures: [Figure] = []
    let channelIDs = String(decoding: try JSONEncoder().encode(SyntheticLibrary(markCount: 0).channels().map(\.id)), as: UTF8.self)
    let firstPage = "{\"channelIds\":\(channelIDs),\"afterSeq\":0,\"limit\":100}"
    var served: Double = 0
    for (name, body) in [
        ("hub.query.sync-216.first", firstPage),
        ("hub.query.sync-216.mid-way", "{\"channelIds\":\(channelIDs),\"afterSeq\":5000,\"limit\":100}"),
        ("hub.query.sync-216.nothing-new", "{\"channelIds\":\(channelIDs),\"afterSeq\":10000,\"limit\":100}"),
    ] {
        let result = try load.run([.init(path: "/api/videos/query", body: body)], connections: 100)
        if name.hasSuffix(".first") { served = result.requestsPerSecond }
        figures.append(Figure(name: "\(name).throughput", value: result.requestsPerSecond, unit: "req/s", detail: "216 channelIds, 100-video pages, wrk 100 connections, 5 s, \(result.errors) errors"))
        figures.append(Figure(name: "\(name).p99", value: result.p99Millis, unit: "ms", goal: "<= 50", detail: "p50 \(String(format: "%.2f", result.p50Millis)) ms"))
    }
    // Bodies no earlier request sent (1,000 first pages differing in afterSeq, more than the
    // server's page cache keeps): every answer is read from SQLite and encoded afresh.
    let distinct = (0..<1_000).map { WrkLoad.Request(path: "/api/videos/query", body: "{\"channelIds\":\(channelIDs),\"afterSeq\":\($0),\"limit\":100}") }
    let uncached = try load.run(distinct, connections: 100)
    figures.append(Figure(name: "hub.query.sync-216.uncached.throughput", value: uncached.requestsPerSecond, unit: "req/s", detail: "1,000 different bodies in turn (afterSeq 0…999), none answered from the page cache, \(uncached.errors) errors"))
    figures.append(Figure(name: "hub.query.sync-216.uncached.p99", value: uncached.p99Millis, unit: "ms", detail: "p50 \(String(format: "%.2f", uncached.p50Millis)) ms"))
    let page = try await post(server.baseURL + "/api/videos/query", body: firstPage)
    if let nginx = try await nginxFigure(serving: page, in: folder, load: load) {
        figures.append(Figure(name: "hub.query.nginx-static.throughput", value: nginx.requestsPerSecond, unit: "req/s", detail: "the same \(page.readableBytes)-byte first page as a static file from nginx, p99 \(String(format: "%.2f", nginx.p99Millis)) ms"))
        figures.append(Figure(name: "hub.query.server-to-nginx", value: served / max(nginx.requestsPerSecond, 1), unit: "x", goal: ">= 0.23", detail: "metube-server req/s ÷ nginx req/s for the same bytes, same run (the former goal, 5,000 req/s, over this machine's nginx, 22,000 req/s)"))
    }

    let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
    let markSyncPath = "/database/1/\(MarkSyncConfiguration.defaultContainer)/development/private/"
    let query = "?ckAPIToken=\(MarkSyncConfiguration.defaultAPIToken)"
    let encoder = JSONEncoder()
    func modifyBody(round: Int) throws -> String {
        let operations = (0..<200).map { index in
            MarkSyncRecordsModifyRequest.Operation(.forceReplace, record: WatchedRecord(
                videoID: "video-\(round)-\(index)", status: index % 3 == 0 ? "skipped" : "watched",
                lastModified: 1_765_650_000_000 + Int64(index), hlc: "1765650000000-\(index)", deviceID: "bench").record())
        }
        return String(decoding: try encoder.encode(MarkSyncRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: false)), as: UTF8.self)
    }
    let createZone = String(decoding: try encoder.encode(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)])), as: UTF8.self)
    for token in tokens {
        _ = try await post(server.baseURL + markSyncPath + "zones/modify" + query, body: createZone, token: token)
        for round in 1...5 {
            _ = try await post(server.baseURL + markSyncPath + "records/modify" + query, body: try modifyBody(round: round), token: token)
        }
    }
    let modify = try modifyBody(round: 0)
    let modifyResult = try load.run(tokens.map { .init(path: markSyncPath + "records/modify" + query, body: modify, token: $0) }, connections: users, measuringCPUOf: server)
    let changes = String(decoding: try encoder.encode(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, resultsLimit: 200)])), as: UTF8.self)
    let changesResult = try load.run(tokens.map { .init(path: markSyncPath + "changes/zone" + query, body: changes, token: $0) }, connections: users)
    let detail = "\(users) users on \(users) wrk connections, 5 s, SQLite file"
    let reference = try SQLiteReference(folder: folder, clients: users, recordsPerWrite: 200, seedRounds: 5)
    let referenceWrites = try SQLiteReference.rate(clients: users, seconds: 5) { client, round in try reference.write(zone: client, round: 100 + round, records: 200) }
    let referenceReads = try SQLiteReference.rate(clients: users, seconds: 5) { client, _ in _ = try reference.readPage(zone: client, records: 200) }
    func ratio(_ served: Double, _ reference: Double) -> Double { served / max(reference, 1) }
    let referenceDetail = "a minimal GRDB program in the bench process, \(users) threads, WAL + synchronous=FULL like the server, 5 s"
    figures += [
        Figure(name: "status.server.modify200.throughput", value: modifyResult.requestsPerSecond, unit: "req/s", detail: detail + ", 200 records each, \(modifyResult.errors) errors"),
        Figure(name: "status.reference.write200.throughput", value: referenceWrites.perSecond, unit: "tx/s",
               detail: "the same 200-record upserts, one transaction each, by \(referenceDetail); p99 \(String(format: "%.2f", referenceWrites.p99Millis)) ms"),
        Figure(name: "status.server.modify200.to-reference", value: ratio(modifyResult.requestsPerSecond, referenceWrites.perSecond), unit: "x", goal: ">= 0.77",
               detail: "records/modify req/s ÷ the reference's transactions/s, same run (the former goal, 500 req/s, over this machine's reference at synchronous=FULL, 646 tx/s)"),
        Figure(name: "status.server.modify200.p99", value: modifyResult.p99Millis, unit: "ms", goal: "<= 200", detail: "p50 \(String(format: "%.2f", modifyResult.p50Millis)) ms"),
        Figure(name: "status.server.modify200.cpu-per-request", value: modifyResult.serverCPUMillisPerRequest ?? .nan, unit: "ms",
               detail: "the server process's CPU time (user + system, /proc) over the measured run ÷ its requests"),
        Figure(name: "status.reference.write200.cpu-per-transaction", value: referenceWrites.cpuMillisPerOperation, unit: "ms",
               detail: "the bench process's CPU time over the reference's run ÷ its transactions"),
        Figure(name: "status.server.modify200.cpu-to-reference", value: (modifyResult.serverCPUMillisPerRequest ?? .nan) / referenceWrites.cpuMillisPerOperation, unit: "x",
               detail: "CPU a request ÷ CPU a reference transaction, same run: steadier than the throughput ratio, which moves with how the host shares its cores (0.63–0.71 in runs of one build on one day)"),
        Figure(name: "status.server.changes200.throughput", value: changesResult.requestsPerSecond, unit: "req/s", detail: detail + ", 200-record pages, \(changesResult.errors) errors"),
        Figure(name: "status.reference.read200.throughput", value: referenceReads.perSecond, unit: "reads/s",
               detail: "the same 200-record pages read by \(referenceDetail); p99 \(String(format: "%.2f", referenceReads.p99Millis)) ms"),
        Figure(name: "status.server.changes200.to-reference", value: ratio(changesResult.requestsPerSecond, referenceReads.perSecond), unit: "x", goal: ">= 0.18",
               detail: "changes/zone req/s ÷ the reference's page reads/s, same run (the former goal, 1,000 req/s, over this machine's reference, 5,600 reads/s; the server also encodes each page as JSON and checks the token)"),
        Figure(name: "status.server.changes200.p99", value: changesResult.p99Millis, unit: "ms", detail: "p50 \(String(format: "%.2f", changesResult.p50Millis)) ms"),
        Figure(name: "server.peak-rss", value: server.peakResidentMiB(), unit: "MiB", detail: "the metube-server process (VmHWM) after all the loads above"),
    ]
    return figures
}

/// Adds `count` mark-sync users to the database file at `databasePath` (creating it) and returns
/// their tokens; the database is closed again before the server opens it.
private func addUsers(count: Int, databasePath: String) async throws -> [String] {
    let service = MarkSyncService(repository: SQLiteMarkSyncRepository(database: try ServerDatabase(path: databasePath)))
    var tokens: [String] = []
    for index in 0..<count { tokens.append(try await service.addUser(name: "bench\(index)")) }
    return tokens
}

/// POSTs `body` (with `token` as the bearer, when given) and returns the answer; throws unless
/// it is 200.
private func post(_ url: String, body: String, token: String? = nil) async throws -> ByteBuffer {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let answer = try await response.body.collect(upTo: 16 << 20)
    guard response.status == .ok else { throw BenchFailure("\(url) answered \(response.status): \(String(buffer: answer).prefix(300))") }
    return answer
}

/// Serves `page` as a static file from nginx on a loopback port and loads it like the server;
/// with `gzipped`, serves that instead to requests accepting gzip (`gzip_static`) and loads it
/// with such requests. Nil when nginx is not installed.
func nginxFigure(serving page: ByteBuffer, gzipped: ByteBuffer? = nil, in folder: URL, load: WrkLoad) async throws -> WrkLoad.Result? {
    guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else { return nil }
    let root = folder.appendingPathComponent("nginx", isDirectory: true)
    try FileManager.default.createDirectory(at: root.appendingPathComponent("logs"), withIntermediateDirectories: true)
    try Data(page.readableBytesView).write(to: root.appendingPathComponent("page.json"))
    if let gzipped { try Data(gzipped.readableBytesView).write(to: root.appendingPathComponent("page.json.gz")) }
    let port = 20_000 + Int.random(in: 0..<20_000)
    try """
        worker_processes 2;
        daemon off;
        pid \(root.path)/nginx.pid;
        error_log \(root.path)/logs/error.log crit;
        events { worker_connections 1024; }
        http {
            access_log off;
            client_body_temp_path \(root.path)/body; proxy_temp_path \(root.path)/proxy;
            fastcgi_temp_path \(root.path)/fastcgi; uwsgi_temp_path \(root.path)/uwsgi; scgi_temp_path \(root.path)/scgi;
            default_type application/json;
            server { listen 127.0.0.1:\(port); root \(root.path); keepalive_requests 1000000; gzip_static \(gzipped == nil ? "off" : "on"); }
        }
        """.write(to: root.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nginx)
    process.arguments = ["-p", root.path, "-c", root.appendingPathComponent("nginx.conf").path]
    try process.run()
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    let url = "http://127.0.0.1:\(port)/page.json"
    for _ in 0..<50 {
        if let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(1)), response.status == .ok { break }
        try await Task.sleep(for: .milliseconds(100))
    }
    return try WrkLoad(wrk: load.wrk, folder: load.folder, baseURL: "http://127.0.0.1:\(port)").run([.init(path: "/page.json", method: "GET", body: "", acceptsGzip: gzipped != nil)], connections: 100)
}

/// Runs `wrk` against the server: a 1 s warm-up, then 5 s measured, 2 threads.
struct WrkLoad {
    /// One request of the rotation.
    struct Request {
        var path: String
        var method = "POST"
        var body: String
        var token: String?
        var acceptsGzip = false
    }

    /// What wrk measured.
    struct Result {
        var requests: Int
        var requestsPerSecond: Double
        var p50Millis: Double
        var p99Millis: Double
        var errors: Int
        /// The CPU seconds the measured server used in the measured run, when one was named.
        var serverCPUSeconds: Double?

        /// The server's CPU time a request, in milliseconds, when it was measured.
        var serverCPUMillisPerRequest: Double? {
            serverCPUSeconds.map { $0 * 1000 / Double(max(requests, 1)) }
        }
    }

    let wrk: String
    let folder: URL
    let baseURL: String

    /// Sends `requests` in rotation from `connections` connections and returns the measured run,
    /// with the CPU time `server` used in it when given.
    func run(_ requests: [Request], connections: Int, measuringCPUOf server: ServerProcess? = nil) throws -> Result {
        let script = folder.appendingPathComponent("load-\(UUID().uuidString).lua")
        try luaScript(requests).write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        _ = try runWrk(script: script, connections: connections, seconds: 1)
        let cpuBefore = server?.cpuSeconds()
        let output = try runWrk(script: script, connections: connections, seconds: 5)
        let cpuAfter = server?.cpuSeconds()
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") }) else {
            throw BenchFailure("wrk printed \(output)")
        }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count == 5, values[1] > 0 else { throw BenchFailure("wrk printed \(line)") }
        return Result(
            requests: Int(values[0]), requestsPerSecond: values[0] / (values[1] / 1_000_000), p50Millis: values[2] / 1000, p99Millis: values[3] / 1000,
            errors: Int(values[4]), serverCPUSeconds: cpuAfter.flatMap { after in cpuBefore.map { after - $0 } })
    }

    private func runWrk(script: URL, connections: Int, seconds: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--timeout", "10s", "-s", script.path, baseURL]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("wrk exited \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// A wrk script sending `requests` in turn and printing
    /// `RESULT requests duration-µs p50-µs p99-µs errors` when done.
    private func luaScript(_ requests: [Request]) -> String {
        let formatted = requests.map { request in
            var headers = "[\"Content-Type\"] = \"application/json\""
            if let token = request.token { headers += ", [\"Authorization\"] = \"Bearer \(token)\"" }
            if request.acceptsGzip { headers += ", [\"Accept-Encoding\"] = \"gzip\"" }
            return "wrk.format(\"\(request.method)\", \"\(request.path)\", { \(headers) }, \(request.body.isEmpty ? "nil" : "[==[\(request.body)]==]"))"
        }
        return """
            local requests = { \(formatted.joined(separator: ",\n")) }
            local next = 0
            request = function()
                next = next % #requests + 1
                return requests[next]
            end
            done = function(summary, latency, _)
                local e = summary.errors
                io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration,
                    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout + e.status))
            end
            """
    }
}
