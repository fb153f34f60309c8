import Foundation
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeFeeds
import MeTubeYouTube

/// Resolves the links users give (`@handle`, `/c/`, `/user/`, video links) into channel ids once
/// for the whole household, for `POST /api/channels/resolve`.
///
/// A `UC…` id is answered as it is, costing nothing. Every other link is answered from the
/// ``ChannelLinkCache`` when it was resolved before (a channel for ``foundLifetime``, a link that
/// does not exist for ``missingLifetime``); otherwise it is looked up — with the Data API when a
/// key is set (one unit from the server's daily budget), else with `--yt-dlp` — at most
/// ``concurrency`` at once, started at the feeds' rate, each within ``lookupDeadline``. Each
/// lookup costs the asking user one of their lookups of the hour; a link already being looked up
/// for anyone is waited for, not looked up again. A request waits at most its window; lookups
/// still running then go on and are stored, so sending the link again finds it. After a spent
/// quota, no lookup starts until the next UTC day.
actor ChannelLinkResolver {
    /// The most lookups running at once.
    static let concurrency = 4
    /// How long one lookup may take.
    static let lookupDeadline = Duration.seconds(20)
    /// How long a resolved channel is answered from the cache (ms).
    static let foundLifetime: Int64 = 30 * 86_400_000
    /// How long a link YouTube said does not exist is answered so from the cache (ms).
    static let missingLifetime: Int64 = 86_400_000

    /// The outcome of one lookup.
    typealias Outcome = Result<String, YouTubeError>

    private let resolver: ChannelResolver
    private let dataAPIBudget: DataAPIBudget?
    private let cache: any ChannelLinkCache
    /// The lookups each user may start per hour, by user id.
    private let userBudget: RegistrationLimiter
    private let lookupsPerHour: Int?
    private let limiter: FeedRateLimiter
    private let logger: Logger
    /// The lookups running, by link key.
    private var running: Set<String> = []
    /// The lookups waiting for a free place, oldest first.
    private var queued: [CheckedContinuation<Void, Never>] = []
    /// How many lookups hold a place.
    private var active = 0
    /// The requests waiting for lookups: the keys each waits for and where their outcomes go.
    private var listeners: [UUID: (keys: Set<String>, continuation: AsyncStream<(String, Outcome)>.Continuation)] = [:]
    /// Until when a spent quota stops new lookups, and the error it gave.
    private var quotaSpent: (until: Date, error: YouTubeError)?

    /// A resolver asking `dataAPI` (spending from `dataAPIBudget`) when a key is set, else the
    /// yt-dlp `ytDLP`, storing in `cache`; each user may start `lookupsPerHour` lookups an hour
    /// (nil: no limit), and lookups start at most `rate` a second (0: no limit).
    init(dataAPI: YouTubeDataAPI?, dataAPIBudget: DataAPIBudget?, ytDLP: String, cache: any ChannelLinkCache, lookupsPerHour: Int?, rate: Double, logger: Logger) {
        var dataAPI = dataAPI
        dataAPI?.timeout = .seconds(Self.lookupDeadline.components.seconds)
        resolver = ChannelResolver(
            dataAPI: dataAPI, ytDLP: YTDLPCatalog(command: ytDLP, deadline: Self.lookupDeadline),
            hints: (key: "--youtube-api-key", ytDLP: "--yt-dlp"))
        self.dataAPIBudget = dataAPIBudget
        self.cache = cache
        self.lookupsPerHour = lookupsPerHour
        userBudget = RegistrationLimiter(channelsPerHour: lookupsPerHour)
        limiter = FeedRateLimiter(rate: rate)
        self.logger = logger
    }

    /// The result of each of `texts` (already bounded in count and size), in order, for the user
    /// `userID`, waiting at most `window` for lookups. Storage failures are thrown.
    func resolve(_ texts: [String], userID: Int64, within window: Duration) async throws -> [HubResolveResult] {
        let references = texts.map { ChannelReference.parse($0) }
        var links: [String: ChannelLink] = [:]
        for case let .link(link) in references where links[link.key] == nil { links[link.key] = link }
        let now = Date().millisecondsSince1970
        let cached = try await cache.answers(forKeys: Array(links.keys), foundSince: now - Self.foundLifetime, missingSince: now - Self.missingLifetime)
        var outcomes: [String: Outcome] = [:]
        for (key, answer) in cached {
            switch answer {
            case let .channel(id): outcomes[key] = .success(id)
            case .missing: outcomes[key] = .failure(.notFound(links[key]?.description ?? key))
            }
        }
        var throttled: [String: Int] = [:]
        for (key, link) in links.sorted(by: { $0.key < $1.key }) where outcomes[key] == nil && !running.contains(key) {
            if let quotaSpent, quotaSpent.until > Date() {
                outcomes[key] = .failure(quotaSpent.error)
            } else if let wait = userBudget.wait(for: String(userID)) {
                throttled[key] = wait
            } else {
                userBudget.record(1, for: String(userID))
                start(link)
            }
        }
        let awaited = Set(links.keys.filter { outcomes[$0] == nil && throttled[$0] == nil })
        outcomes.merge(await wait(for: awaited, within: window)) { _, new in new }
        return zip(texts, references).map { text, reference in result(text, reference, outcomes: outcomes, throttled: throttled) }
    }

    /// What one link of a request gets.
    private func result(_ text: String, _ reference: ChannelReference, outcomes: [String: Outcome], throttled: [String: Int]) -> HubResolveResult {
        switch reference {
        case let .channel(id):
            return HubResolveResult(link: text, channelID: id)
        case let .unusable(reason):
            return HubResolveResult(link: text, failure: .invalid, error: reason)
        case let .link(link):
            if let wait = throttled[link.key] {
                return HubResolveResult(link: text, failure: .throttled, error: "your \(lookupsPerHour ?? 0) lookups of this hour are spent; retry in \(wait) s")
            }
            switch outcomes[link.key] {
            case let .success(id)?:
                return HubResolveResult(link: text, channelID: id)
            case .failure(.notFound)?:
                return HubResolveResult(link: text, failure: .notFound, error: YouTubeError.notFound(link.description).description)
            case let .failure(error)?:
                return HubResolveResult(link: text, failure: error.isQuota ? .quotaExceeded : .unavailable, error: DisplayText.line(error.description, limit: 300))
            case nil:
                return HubResolveResult(link: text, failure: .pending, error: "\(link) is still being looked up; send it again")
            }
        }
    }

    /// Starts looking `link` up; its outcome is stored, then sent to the requests waiting for it.
    private func start(_ link: ChannelLink) {
        running.insert(link.key)
        Task {
            let outcome = await lookUp(link)
            await finish(link, outcome)
        }
    }

    /// One lookup, once a place is free and the rate allows.
    private func lookUp(_ link: ChannelLink) async -> Outcome {
        await takePlace()
        defer { leavePlace() }
        do throws(YouTubeError) {
            do { try await limiter.acquire() } catch { throw .cancelled }
            if resolver.dataAPI != nil, let dataAPIBudget { try await dataAPIBudget.spend(units: 1) }
            return .success(try await resolver.channelID(of: link))
        } catch {
            return .failure(error)
        }
    }

    /// Stores `outcome` of `link` (a channel, or that it does not exist), notes a spent quota,
    /// and sends it to the requests waiting.
    private func finish(_ link: ChannelLink, _ outcome: Outcome) async {
        let answer: CachedLink?
        switch outcome {
        case let .success(id):
            answer = .channel(id)
        case .failure(.notFound):
            answer = .missing
        case let .failure(error):
            answer = nil
            if error.isQuota { quotaSpent = (UTCDay.nextStart(after: Date()), error) }
            logger.warning("resolving a link failed", metadata: ["link": "\(link)", "error": "\(error)"])
        }
        if let answer {
            do {
                try await cache.store(answer, forKey: link.key, now: Date().millisecondsSince1970)
            } catch {
                logger.warning("storing a resolved link failed; it is looked up again when asked", metadata: ["link": "\(link)", "error": "\(error)"])
            }
        }
        running.remove(link.key)
        for listener in listeners.values where listener.keys.contains(link.key) { listener.continuation.yield((link.key, outcome)) }
    }

    /// The outcomes of the lookups of `keys` that finish within `window`.
    private func wait(for keys: Set<String>, within window: Duration) async -> [String: Outcome] {
        guard !keys.isEmpty else { return [:] }
        let id = UUID()
        let (stream, continuation) = AsyncStream<(String, Outcome)>.makeStream()
        listeners[id] = (keys, continuation)
        let timer = Task {
            try? await Task.sleep(for: window)
            continuation.finish()
        }
        defer {
            timer.cancel()
            listeners[id] = nil
        }
        var outcomes: [String: Outcome] = [:]
        for await (key, outcome) in stream {
            outcomes[key] = outcome
            if outcomes.count == keys.count { break }
        }
        return outcomes
    }

    /// Waits for one of the ``concurrency`` places.
    private func takePlace() async {
        guard active >= Self.concurrency else {
            active += 1
            return
        }
        await withCheckedContinuation { queued.append($0) }
    }

    /// Gives a place to the oldest waiting lookup, or frees it.
    private func leavePlace() {
        if queued.isEmpty {
            active -= 1
        } else {
            queued.removeFirst().resume()
        }
    }
}
