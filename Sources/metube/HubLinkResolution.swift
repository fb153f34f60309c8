import MeTubeAPI
import MeTubeCore
import MeTubeFeeds
import MeTubeSync

/// Links resolved by the hub, once for the whole household (`POST /api/channels/resolve`), as
/// the mark-sync user of this machine: in batches of `HubAPI.maxResolveLinks`, with progress on
/// stderr. Links the hub is still looking up are sent again a second later, at most ``rounds``
/// times.
struct HubLinkResolution {
    /// What the hub made of the links.
    enum Outcome {
        /// Each link's channel id, or why it has none.
        case answered([ChannelLink: Result<String, LinkFailure>])
        /// The hub does not resolve links for this machine (an older hub, or a token it does not
        /// know); the note says so in one line.
        case unsupported(note: String)
    }

    /// The most times a link the hub is still looking up is sent.
    static let rounds = 10

    let client: HubClient
    /// The mark-sync user's token.
    let token: String

    /// What the hub made of `links` (distinct).
    func resolve(_ links: [ChannelLink]) async -> Outcome {
        var results: [ChannelLink: Result<String, LinkFailure>] = [:]
        var pending = links
        for round in 1...Self.rounds {
            var again: [ChannelLink] = []
            for start in stride(from: 0, to: pending.count, by: HubAPI.maxResolveLinks) {
                let batch = Array(pending[start..<min(start + HubAPI.maxResolveLinks, pending.count)])
                do throws(SyncError) {
                    for (link, result) in zip(batch, try await client.resolve(batch.map(\.url), token: token)) {
                        if let id = result.channelID {
                            results[link] = .success(id)
                        } else if result.code == .pending {
                            again.append(link)
                        } else {
                            results[link] = .failure(.hub(result.error ?? "no reason given"))
                        }
                    }
                } catch let .http(status, message, _) where results.isEmpty && (status == 404 || status == 401) {
                    return .unsupported(note: status == 404
                        ? "note: the hub does not resolve links (an older metube-server); resolving them here"
                        : "note: the hub does not take this machine's status token (\(message)); resolving links here")
                } catch {
                    for link in batch { results[link] = .failure(.hub(error.description)) }
                }
                if links.count > 1 { printError("resolving links through the hub: \(results.count)/\(links.count)") }
            }
            pending = again
            if pending.isEmpty || round == Self.rounds { break }
            try? await Task.sleep(for: .seconds(1))
        }
        for link in pending { results[link] = .failure(.hub("the hub is still looking \(link) up; try again in a minute")) }
        return .answered(results)
    }
}
