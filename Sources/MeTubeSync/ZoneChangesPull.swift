import Logging
import MeTubeAPI
import MeTubeTransfer

/// The pull of one zone's changes since a saved token, page by page, which mark sync and
/// subscription sync share: each page is handed to the caller, which saves it with its token, so
/// an interrupted pull resumes after the last saved page, and the next page is fetched while the
/// current one is applied.
///
/// The pull is bounded: a token longer than ``PeerInput/maxSyncTokenBytes``, a page that hands back
/// the token it was asked with, a page that only repeats records already pulled, or more than
/// ``maxPages`` pages stop it with a clear error (what was applied stays). A missing zone is
/// created and pulled from the beginning; a token the server refuses is forgotten once (pulling
/// from the beginning).
struct ZoneChangesPull: Sendable {
    /// The most pages one pull follows (at 200 records a page, two million records).
    static let maxPages = 10_000

    let client: MarkSyncClient
    let zoneID: MarkSyncZoneID
    /// Records asked for per page.
    let batchSize: Int
    /// What the zone holds, for the log line of a refused token ("status", "subscriptions").
    let label: String
    let logger: Logger

    /// Pulls from `token`, calling `apply` with each page in order; answers whether the server
    /// refused `token`, so the pull started over.
    func run(from token: String?, apply: (MarkSyncZoneChanges) throws -> Void) async throws -> Bool {
        var token = token
        var restarted = false
        var pages = 0
        var seen: Set<String> = []
        var prefetch: Task<MarkSyncZoneChangesResponse, any Error>?
        defer { prefetch?.cancel() }
        while true {
            let response: MarkSyncZoneChangesResponse
            if let prefetched = prefetch {
                response = try await prefetched.value
                prefetch = nil
            } else {
                response = try await page(after: token)
            }
            switch response.zones.first {
            case .success(let changes)?:
                pages += 1
                try Self.checkBounds(changes, after: token, pages: pages, seen: &seen)
                if changes.moreComing {
                    let next = changes.syncToken
                    prefetch = Task { try await page(after: next) }
                }
                try apply(changes)
                token = changes.syncToken
                if !changes.moreComing { return restarted }
            case .failure(let error)? where error.serverErrorCode == .zoneNotFound:
                try await client.ensureZone(zoneID)
                token = nil
            case .failure(let error)? where error.serverErrorCode == .badRequest && token != nil && !restarted:
                logger.notice("\(label) sync token refused (\(error.reason)); pulling from the beginning")
                token = nil
                restarted = true
            case .failure(let error)?:
                throw MarkSyncRequestFailure.zone(error)
            case nil:
                throw MarkSyncRequestFailure.noZoneInChanges
            }
        }
    }

    /// One page of changes after `token`.
    private func page(after token: String?) async throws -> MarkSyncZoneChangesResponse {
        try await client.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: batchSize)]))
    }

    /// Throws when a page of changes breaks a bound of the pull; `seen` collects the versions
    /// (record name and change tag) pulled so far.
    static func checkBounds(_ changes: MarkSyncZoneChanges, after token: String?, pages: Int, seen: inout Set<String>) throws {
        guard changes.syncToken.utf8.count <= PeerInput.maxSyncTokenBytes else {
            throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "changes/zone sent a sync token of \(changes.syncToken.utf8.count) bytes (at most \(PeerInput.maxSyncTokenBytes))")
        }
        guard changes.moreComing else { return }
        if changes.syncToken == token {
            throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "changes/zone page \(pages) says more is coming but hands back the same sync token: its pages repeat")
        }
        let versions = changes.records.map { "\($0.recordName ?? "")/\($0.recordChangeTag ?? "")/\($0.deleted == true)" }
        if !versions.isEmpty, versions.allSatisfy(seen.contains) {
            throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "changes/zone page \(pages) repeats \(versions.count) records already pulled: its pages repeat")
        }
        seen.formUnion(versions)
        if pages >= maxPages {
            throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "changes/zone kept saying more is coming after \(pages) pages; stopped (what was pulled is kept)")
        }
    }
}
