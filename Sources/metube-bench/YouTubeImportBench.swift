import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeYouTube
import TestSupport

/// `metube import --youtube` of 2,000 subscriptions (issue 26): 40 pages of 50 read from a
/// loopback stub in the Data API's shape, with a token refresh first, then followed in one store
/// transaction, as the command does.
func youTubeImportFigure(directory: URL) async throws -> Figure {
    let count = 2_000
    let titles = ["Digital Foundry", "Kurzgesagt – In a Nutshell", "3Blue1Brown", "Technology Connections", "Veritasium"]
    let stub = await YouTubeStub.start(channels: (0..<count).map { (YouTubeStub.channelID($0), "\(titles[$0 % titles.count]) \($0)") })
    defer { stub.stop() }
    let oauth = YouTubeOAuthClient(configuration: YouTubeConfiguration(clientID: "bench", clientSecret: "bench", oauthURL: stub.url, apiURL: stub.url))
    let store = try Store.open(at: directory.appendingPathComponent("youtube-import"))
    var list = YouTubeSubscriptionList(credentials: YouTubeCredentials(refreshToken: "bench"))
    let millis = try await Measure.millis {
        list = await YouTubeSubscriptionReader(oauth: oauth).read(with: list.credentials)
        try store.transaction { transaction in
            for channel in list.channels where transaction.library.channels[channel.id] == nil { transaction.follow(channel) }
        }
    }
    guard list.failure == nil, list.pages == 40, store.library().channels.count == count else {
        throw BenchFailure("youtube import: imported \(store.library().channels.count) of \(count) in \(list.pages) pages: \(String(describing: list.failure))")
    }
    return Figure(name: "subscriptions.youtube-import.2k", value: millis, unit: "ms", goal: "<= 2000 ms",
                  detail: "metube import --youtube's work: 40 pages of 50 from a loopback Data API stub, then one store transaction following 2,000 channels")
}
