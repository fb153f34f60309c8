import Foundation
import MeTubeCore
import MeTubeDemo
import TestSupport

/// The resolve figures: `metube import` of 500 links of the forms people paste (ids and
/// `/channel/` links, `@handles` and handle links with repeats in other cases, `/c/` and
/// `/user/` links, video links of every kind and host, tracking parameters) through a
/// `metube-server` child with a Data API key whose API is the loopback stub, the lookups at the
/// default `--feed-rate`: the import's time, and the requests that reached YouTube per handle,
/// for the ids, and per link.
func resolveFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-resolve-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let links = ResolveBenchLinks()
    let stub = await YouTubeStub.start(override: YouTubeStub.resolving(handles: links.handles, users: links.users, videos: links.videos))
    defer { stub.stop() }
    let database = folder.appendingPathComponent("hub.sqlite").path
    let server = try await ServerProcess.start([
        "serve", "--database", database, "--port", "0", "--poll-interval", "0", "--youtube-api-key", "bench-key",
        "--youtube-api-url", stub.url, "--status-rate", "0", "--log-level", "critical",
    ])
    defer { server.stop() }
    let user = try runProcess(ServerProcess.binary, ["users", "add", "bench", "--database", database])
    guard user.status == 0 else { throw BenchError("resolve: users add failed: \(user.stderr)") }
    let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("xdg").path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
    let login = try await runProcessOffPool(
        metubeBinary, ["login", "--server", server.baseURL, "--token", user.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "--environment", "development"],
        environment: environment)
    guard login.status == 0 else { throw BenchError("resolve: metube login failed: \(login.stderr)") }
    let config = folder.appendingPathComponent("config.toml")
    try "[hub]\nurl = \"\(server.baseURL)\"\n".write(to: config, atomically: true, encoding: .utf8)
    let list = folder.appendingPathComponent("links.txt")
    try (links.lines.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)

    let start = ContinuousClock.now
    let run = try await runProcessOffPool(
        metubeBinary, ["import", list.path, "--data-dir", folder.appendingPathComponent("store").path, "--config", config.path], environment: environment)
    let elapsed = ContinuousClock.now - start
    guard run.status == 0, run.stdout.contains("added \(links.channelCount),") else {
        throw BenchError("resolve: the import did not follow the \(links.channelCount) channels (status \(run.status)): \(run.stdout) \(run.stderr.suffix(400))")
    }
    let lookups = stub.requests.filter { $0.path == "/channels" || $0.path == "/videos" }
    let handleRequests = lookups.filter { $0.query["forHandle"].map { links.handles[String($0.dropFirst()).lowercased()] != nil && !$0.lowercased().hasPrefix("@show") } ?? false }
    let idRequests = lookups.filter { request in request.query.values.contains { links.ids.contains($0) } }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let detail = "\(links.lines.count) links: \(links.idLines) ids and /channel/ links, \(links.handleLines) handles (\(links.distinctHandles) distinct), \(links.customLines) /c/, \(links.userLines) /user/, \(links.videoLines) video links"
    return [
        Figure(name: "resolve.hub.import.500", value: seconds, unit: "s", goal: "<= 30",
               detail: "metube import through the hub, Data API stub, --feed-rate 20; \(detail); added \(links.channelCount)"),
        Figure(name: "resolve.hub.requests-per-handle", value: Double(handleRequests.count) / Double(links.distinctHandles), unit: "req", goal: "<= 1",
               detail: "channels.list forHandle requests / \(links.distinctHandles) distinct handles (each also pasted in other cases and forms)"),
        Figure(name: "resolve.hub.requests-for-ids", value: Double(idRequests.count), unit: "req", goal: "= 0",
               detail: "requests naming any of the \(links.ids.count) ids"),
        Figure(name: "resolve.hub.requests-per-link", value: Double(lookups.count) / Double(links.lines.count), unit: "req",
               detail: "\(lookups.count) Data API requests for \(links.lines.count) links: \(lookups.filter { $0.query["forHandle"] != nil }.count) forHandle, "
                   + "\(lookups.filter { $0.query["forUsername"] != nil }.count) forUsername, \(lookups.filter { $0.path == "/videos" }.count) videos.list; "
                   + run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
    ]
}

/// The 500 links of the resolve figures and what the stub knows of them.
private struct ResolveBenchLinks {
    var lines: [String] = []
    /// The channel ids pasted as ids or `/channel/` links.
    var ids: Set<String> = []
    /// What the stub resolves: handles (and `/c/` names, which YouTube made handles), users, videos.
    var handles: [String: String] = [:]
    var users: [String: String] = [:]
    var videos: [String: String] = [:]
    var idLines = 150
    var handleLines = 150
    var distinctHandles = 120
    var customLines = 40
    var userLines = 40
    var videoLines = 120
    /// The distinct channels the links name.
    var channelCount: Int { idLines + distinctHandles + customLines + userLines + 50 }

    init() {
        for number in 1...idLines {
            let id = DemoCatalog.channelID(number)
            ids.insert(id)
            lines.append([id, "https://www.youtube.com/channel/\(id)", "https://m.youtube.com/channel/\(id)?si=Xy12", "youtube.com/channel/\(id)/videos"][number % 4])
        }
        for number in 0..<handleLines {
            let index = number % distinctHandles
            let name = "creator\(index)"
            handles[name] = DemoCatalog.channelID(1_000 + index)
            let shown = number >= distinctHandles ? "Creator\(index)" : name
            lines.append(["@\(shown)", "https://www.youtube.com/@\(shown)", "https://m.youtube.com/@\(shown)?si=AbC&feature=share", "https://youtube.com/@\(shown)/videos"][number % 4])
        }
        for number in 0..<customLines {
            handles["show\(number)"] = DemoCatalog.channelID(1_200 + number)
            lines.append(number.isMultiple(of: 2) ? "https://www.youtube.com/c/Show\(number)" : "https://m.youtube.com/c/Show\(number)/videos?view=0")
        }
        for number in 0..<userLines {
            users["olduser\(number)"] = DemoCatalog.channelID(2_000 + number)
            lines.append(number.isMultiple(of: 2) ? "https://www.youtube.com/user/OldUser\(number)" : "http://youtube.com/user/olduser\(number)?feature=watch")
        }
        for number in 0..<videoLines {
            let id = DemoCatalog.videoID(number + 1)
            videos[id] = DemoCatalog.channelID(3_000 + number % 50)
            lines.append([
                "https://www.youtube.com/watch?v=\(id)&feature=share", "https://youtu.be/\(id)?si=Q1w2", "https://www.youtube.com/shorts/\(id)",
                "https://www.youtube.com/live/\(id)?si=z", "https://music.youtube.com/watch?v=\(id)&si=Mu5c", "https://www.youtube-nocookie.com/embed/\(id)",
            ][number % 6])
        }
    }
}
