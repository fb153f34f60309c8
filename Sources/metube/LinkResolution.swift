import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeSync
import MeTubeYouTube

/// Turns the handles, names and videos a user gave into channel ids. In hub mode the hub does it
/// once for the household (``HubLinkResolution``), as the mark-sync user of `metube login`; a hub
/// that cannot (an older one, no account) leaves it to this machine, with a one-line note. Here
/// it is done with the Data API at `[youtube] api-url` when a key is set, else the yt-dlp of
/// `[download] command`, else an error naming both; at most `[hub] rate` lookups a second, four
/// at a time, with progress on stderr.
struct LinkResolution {
    /// The way links are resolved on this machine.
    let resolver: ChannelResolver
    /// The most lookups started a second.
    let rate: Double
    /// The hub's base URL in hub mode.
    let hubURL: String?

    /// The lookups run at once.
    static let concurrency = 4
    /// How long one yt-dlp lookup may take.
    static let ytDLPDeadline: Duration = .seconds(30)

    /// The resolution `settings` configure, with their Data API key (`[youtube] api-key`) when one is set.
    init(settings: Settings) {
        let dataAPI = settings.text(.youTubeAPIKey).map { YouTubeDataAPI(key: $0, baseURL: settings.text(.youTubeAPIURL) ?? YouTubeDataAPI.defaultBaseURL) }
        let command = settings.text(.downloadCommand) ?? "yt-dlp"
        resolver = ChannelResolver(
            dataAPI: dataAPI, ytDLP: command.isEmpty ? nil : YTDLPCatalog(command: command, deadline: Self.ytDLPDeadline),
            hints: (key: "a YouTube Data API key", ytDLP: "[download] command"))
        let sync = SyncConfiguration(settings: settings)
        rate = max(sync.directRate, 0.1)
        hubURL = sync.source == .hub ? sync.hubURL.flatMap { $0.isEmpty ? nil : $0 } : nil
    }

    /// The channel id of each distinct link of `links`, or why it has none; progress goes to
    /// stderr when there is more than one link.
    func resolve(_ links: [ChannelLink]) async -> [ChannelLink: Result<String, LinkFailure>] {
        let distinct = Array(Set(links)).sorted { $0.key < $1.key }
        guard !distinct.isEmpty else { return [:] }
        if let hubURL {
            if let account = try? MarkSyncAccount.load(from: MarkSyncAccount.defaultDirectory()), !account.userToken.isEmpty {
                switch await HubLinkResolution(client: HubClient(baseURL: hubURL), token: account.userToken).resolve(distinct) {
                case let .answered(results): return results
                case let .unsupported(note): printError(note)
                }
            } else {
                printError("note: the hub resolves links for signed-in users (metube login); resolving them here")
            }
        }
        return await locally(distinct).mapValues { $0.mapError(LinkFailure.local) }
    }

    /// Resolves `distinct` on this machine. A spent quota stops the lookups not yet started,
    /// which fail with it, rather than spending more calls.
    private func locally(_ distinct: [ChannelLink]) async -> [ChannelLink: Result<String, YouTubeError>] {
        var results: [ChannelLink: Result<String, YouTubeError>] = [:]
        var quota: YouTubeError?
        var next = 0
        let interval = Duration.seconds(1 / rate)
        await withTaskGroup(of: (ChannelLink, Result<String, YouTubeError>).self) { group in
            func start() -> Bool {
                guard next < distinct.count else { return false }
                let link = distinct[next]
                next += 1
                if let quota {
                    results[link] = .failure(quota)
                    return true
                }
                group.addTask {
                    do throws(YouTubeError) { return (link, .success(try await resolver.channelID(of: link))) } catch { return (link, .failure(error)) }
                }
                return true
            }
            for _ in 0..<Self.concurrency where start() {}
            while let (link, result) = await group.next() {
                results[link] = result
                if case let .failure(error) = result, error.isQuota { quota = error }
                if distinct.count > 1 { printError("resolving links: \(results.count)/\(distinct.count)") }
                try? await Task.sleep(for: interval)
                while start(), quota != nil {}
            }
        }
        return results
    }
}

/// Why a link has no channel id: this machine's lookup failed, or the hub said why.
enum LinkFailure: Error, CustomStringConvertible {
    /// The lookup on this machine failed.
    case local(YouTubeError)
    /// The hub's reason, one line.
    case hub(String)

    var description: String {
        switch self {
        case let .local(error): error.description
        case let .hub(reason): "hub: \(reason)"
        }
    }
}
