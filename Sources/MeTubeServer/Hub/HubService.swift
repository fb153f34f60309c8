import Foundation
import Hummingbird
import MeTubeAPI

/// The hub's behaviour, independent of HTTP: it validates request bodies, applies the hub's
/// limits and answers from a ``HubRepository``.
///
/// Failures of the request are thrown as ``ServerError``; anything else comes from the storage.
public struct HubService: Sendable {
    /// The new channels one client address may register per hour, unless configured otherwise.
    public static let defaultRegistrationsPerHour = 2_000

    /// The storage.
    public let repository: any HubRepository
    private let registrations: RegistrationLimiter
    private let ingester: FeedIngester?
    private let pages = HubPageCache()
    private let onNewChannels: (@Sendable () -> Void)?
    /// Why the database is unavailable, or nil while it answers (for `/health`).
    let databaseUnavailableReason: @Sendable () -> String?
    /// The channel catalog's failure, or nil while its calls succeed (for `/health`).
    let catalogFailure: @Sendable () async -> CatalogFailure?

    /// Creates the service over `repository`, allowing each client address
    /// `registrationsPerHour` new channels per hour (nil: no limit); registered channels that
    /// `ingester` has not fetched yet are queued for it at once, and `onNewChannels` runs (it must
    /// return at once) after a registration that added channels; `databaseUnavailableReason`
    /// says why the database does not answer, or nil while it does.
    public init(
        repository: any HubRepository, registrationsPerHour: Int? = Self.defaultRegistrationsPerHour, ingester: FeedIngester? = nil,
        onNewChannels: (@Sendable () -> Void)? = nil, databaseUnavailableReason: @escaping @Sendable () -> String? = { nil }
    ) {
        self.init(repository: repository, registrationsPerHour: registrationsPerHour, ingester: ingester, onNewChannels: onNewChannels,
                  databaseUnavailableReason: databaseUnavailableReason, catalogFailure: { nil })
    }

    /// The service as ``init(repository:registrationsPerHour:ingester:onNewChannels:databaseUnavailableReason:)``
    /// makes it, with `catalogFailure` saying how the channel catalog's calls fail.
    init(
        repository: any HubRepository, registrationsPerHour: Int?, ingester: FeedIngester?, onNewChannels: (@Sendable () -> Void)?,
        databaseUnavailableReason: @escaping @Sendable () -> String?, catalogFailure: @escaping @Sendable () async -> CatalogFailure?
    ) {
        self.catalogFailure = catalogFailure
        self.databaseUnavailableReason = databaseUnavailableReason
        self.repository = repository
        self.registrations = RegistrationLimiter(channelsPerHour: registrationsPerHour)
        self.ingester = ingester
        self.onNewChannels = onNewChannels
    }

    /// `channels/register`: stores the plausible channel ids of `body` for the client at `client`
    /// (its address), within its hourly allowance, and queues the ones never fetched for an
    /// immediate fetch, answering how many are pending as `pendingChannels`. "Never fetched" is
    /// what the storage says, so a channel another instance on the same database fetched is not
    /// fetched again here.
    func register(body: some DataProtocol, client: String) async throws -> HubRegisterResponse {
        let ids = try HubRequestValidation.registerChannelIDs(body: body)
        if let wait = registrations.wait(for: client) {
            throw ServerError.tooManyRequests("too many new channels registered from this address; retry in \(wait) s", retryAfter: wait)
        }
        var response = try await repository.register(channelIDs: ids)
        registrations.record(response.inserted, for: client)
        if response.inserted > 0 { onNewChannels?() }
        if let ingester {
            let neverFetched = try await repository.neverFetchedChannelIDs(among: ids)
            response.pendingChannels = await ingester.fetchSoon(ids.filter(neverFetched.contains))
        }
        return response
    }

    /// `channels`: the page of registered channels `body` asks for.
    func channels(body: some DataProtocol) async throws -> HubChannelList {
        let page = try HubRequestValidation.channelsPage(body: body)
        var channels = try await repository.channels(after: page.after, limit: page.limit + 1)
        guard channels.count > page.limit else { return HubChannelList(channels: channels) }
        channels.removeLast(channels.count - page.limit)
        return HubChannelList(channels: channels, nextAfterChannelID: channels.last?.channelID)
    }

    /// `videos/query`: the page `body` asks for, as its JSON answer, gzipped when `gzip`; the
    /// same body answered before is answered from the ``HubPageCache`` while the stored videos
    /// are unchanged, and gzipped at most once.
    func videoPage(body: Data, gzip: Bool = false) async throws -> HubVideoPageAnswer {
        if let cached = pages.entry(for: body), try await repository.videosVersion() == cached.version {
            guard gzip, cached.gzipped == nil else { return HubVideoPageAnswer(entry: cached, gzip: gzip) }
            let entry = try Self.gzipped(cached)
            pages.store(entry, for: body)
            return HubVideoPageAnswer(entry: entry, gzip: gzip)
        }
        let (page, version) = try await repository.versionedVideos(matching: try HubRequestValidation.videoSelection(body: body))
        var entry = HubPageCache.Entry(version: version ?? 0, answer: HubJSONWriter.page(page))
        if gzip { entry = try Self.gzipped(entry) }
        if version != nil { pages.store(entry, for: body) }
        return HubVideoPageAnswer(entry: entry, gzip: gzip)
    }

    /// `entry` with its gzipped answer, when the answer is worth gzipping.
    private static func gzipped(_ entry: HubPageCache.Entry) throws -> HubPageCache.Entry {
        guard entry.answer.readableBytes >= GzipCoding.minimumBytes else { return entry }
        var entry = entry
        entry.gzipped = try GzipCoding.compress(entry.answer)
        return entry
    }
}
