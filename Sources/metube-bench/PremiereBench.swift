import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import TestSupport

/// Upcoming to available (issue 25): premieres announced in a channel's feed with `views="0"` (the
/// NASA fixture's shape, a loopback ``PremiereFeed``), synced as upcoming from a release
/// `metube-server` into a real client store, then released; each figure is the time until the
/// store lists the premiere in unwatched.
///
/// With WebSub, the server subscribes at a loopback hub (``WebSubHubStub``), which pushes each
/// release to the server's callback; the client syncs once after the push. With polling alone,
/// a server polling every 2 s (time-compressed) fetches the released feed; the client syncs
/// until the premiere is listed. At the default 900 s interval the worst case adds a whole
/// interval: a premiere released just after its channel's fetch waits for the next one.
func premiereFigures() async throws -> [Figure] {
    let directory = TemporaryDirectory("metube-bench-premiere")
    defer { directory.remove() }
    let premieres = 5
    let compressedInterval = 2.0
    let defaultInterval = 900.0

    let pushFeed = PremiereFeed(premieres: premieres)
    let (pushFeedService, pushFeedURL) = await pushFeed.serve()
    defer { pushFeedService.stop() }
    let hub = WebSubHubStub()
    let (hubService, hubURL) = await BackgroundService.serve(hub.router, label: "bench-websub-hub")
    defer { hubService.stop() }
    let pushServer = try await ServerProcess.start([
        "serve", "--database", directory.path("push.sqlite"), "--port", "0", "--feed-url-template", pushFeedURL + "/feeds/{channelId}",
        "--poll-interval", String(Int(defaultInterval)), "--public-url", "http://metube.bench.invalid/hub", "--websub-hub", hubURL + "/subscribe",
        "--register-limit", "0", "--log-level", "critical",
    ])
    defer { pushServer.stop() }
    let pushClient = try await PremiereClient.syncedUpcoming(pushFeed, hub: pushServer.baseURL, in: directory.path("push-store"))
    guard let subscription = await hub.nextSubscription(within: .seconds(30)), try await hub.verify(subscription, at: pushServer.baseURL) else {
        throw BenchFailure("the server subscribed at no WebSub hub, or did not confirm the subscription")
    }
    var pushed: [Double] = []
    for premiere in pushFeed.premieres {
        pushFeed.release(premiere.id)
        let elapsed = try await Measure.millis {
            let status = try await hub.deliver(PremiereFeed.push(of: premiere, releasedAt: Date()), to: subscription, at: pushServer.baseURL)
            guard status / 100 == 2 else { throw BenchFailure("the server answered the push with \(status)") }
            try await pushClient.sync()
        }
        guard pushClient.unwatched.contains(premiere.id) else { throw BenchFailure("a pushed release was not in unwatched after one sync") }
        pushed.append(elapsed)
    }

    let pollFeed = PremiereFeed(premieres: premieres)
    let (pollFeedService, pollFeedURL) = await pollFeed.serve()
    defer { pollFeedService.stop() }
    let pollServer = try await ServerProcess.start([
        "serve", "--database", directory.path("poll.sqlite"), "--port", "0", "--feed-url-template", pollFeedURL + "/feeds/{channelId}",
        "--poll-interval", String(compressedInterval), "--register-limit", "0", "--log-level", "critical",
    ])
    defer { pollServer.stop() }
    let pollClient = try await PremiereClient.syncedUpcoming(pollFeed, hub: pollServer.baseURL, in: directory.path("poll-store"))
    var fetchToUnwatched: [Double] = []
    var pollsNeeded: [Int] = []
    for premiere in pollFeed.premieres {
        pollFeed.release(premiere.id)
        let listed = try await pollClient.syncUntil(deadline: .seconds(30)) { $0.unwatched.contains(premiere.id) }
        let fetches = pollFeed.fetchesShowingRelease(of: premiere.id).filter { $0 <= listed }
        guard let first = fetches.first else { throw BenchFailure("a premiere was listed before any fetch showed its release") }
        fetchToUnwatched.append((listed - first).milliseconds)
        pollsNeeded.append(fetches.count)
    }
    let worstWork = fetchToUnwatched.max() ?? .nan

    return [
        Figure(
            name: "premiere.websub.push-to-unwatched", value: Measure.median(pushed), unit: "ms", goal: "<= 5000 ms",
            detail: "median of \(premieres) premieres, max \(String(format: "%.0f", pushed.max() ?? .nan)) ms: signed push to the release server's callback, then one client hub sync (`r` or the TUI's start; else its next `hub-interval` run, default 1 h)"),
        Figure(
            name: "premiere.poll.polls-to-unwatched", value: Double(pollsNeeded.max() ?? .max), unit: "polls", goal: "<= 1",
            detail: "the most fetches of the released feed before the store listed it, \(premieres) premieres, server polling every \(Int(compressedInterval)) s (time-compressed), client syncing until listed"),
        Figure(
            name: "premiere.poll.fetch-to-unwatched", value: Measure.median(fetchToUnwatched), unit: "ms",
            detail: "median of \(premieres): the fetch that shows views to the store listing it (ingest + client sync), max \(String(format: "%.0f", worstWork)) ms"),
        Figure(
            name: "premiere.poll.worst-case.default-interval", value: defaultInterval + worstWork / 1000, unit: "s",
            detail: "the issue's <= 15 min is one poll: a release just after its channel's fetch waits the whole default --poll-interval (900 s), then the fetch, ingest and one client sync (max above); the client's own wait for its next sync (`hub-interval`, default 1 h) is not included"),
    ]
}
