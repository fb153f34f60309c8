import MeTubeAPI

/// The pages and rows one hub run can plausibly need, and what it has used so far. The hub keeps
/// about `HubAPI.videosKeptPerChannel` videos per channel, so a run needs at most that many rows
/// per channel (twice over, for rows re-sequenced while it runs) plus a margin; a hub that sends
/// more, or sends pages that overlap or repeat, is stopped with a clear error.
struct HubPageBudget {
    /// The channels the run's pages can cover.
    let channels: Int
    /// The most rows the run accepts.
    let maxRows: Int
    /// The most pages the run accepts.
    let maxPages: Int
    private(set) var pages = 0
    private(set) var rows = 0
    private var seenVideoIDs: Set<String> = []

    /// A budget for `channels` channels read `pageSize` rows at a time.
    init(channels: Int, pageSize: Int) {
        self.channels = channels
        maxRows = channels * HubAPI.videosKeptPerChannel * 2 + 1000
        maxPages = maxRows / max(1, pageSize) + 10
    }

    /// Starts a new pass through the pages (a channel backlog from seq 0, or the main pass from
    /// the watermark); passes may legitimately overlap each other, pages within one may not.
    mutating func startPass() {
        seenVideoIDs = []
    }

    /// Counts `page`, asked for after `afterSeq`; throws when it overlaps what came before,
    /// repeats a full page of this pass, or goes over the budget.
    mutating func spend(on page: ScreenedHubPage, after afterSeq: Int64, pageSize: Int) throws(SyncError) {
        pages += 1
        rows += page.rowCount
        if let seqs = page.seqRange, seqs.lowerBound <= afterSeq {
            throw .limitExceeded("the hub's page \(pages) holds seq \(seqs.lowerBound), not after the watermark \(afterSeq): its pages overlap")
        }
        let ids = page.videos.map(\.videoID)
        if page.rowCount >= pageSize, !ids.isEmpty, ids.allSatisfy(seenVideoIDs.contains) {
            throw .limitExceeded("the hub's page \(pages) repeats \(ids.count) videos it already sent")
        }
        seenVideoIDs.formUnion(ids)
        guard pages <= maxPages, rows <= maxRows else {
            throw .limitExceeded("the hub kept sending pages (\(pages) pages, \(rows) rows), more than \(channels) channels can need (at most \(maxPages) pages, \(maxRows) rows)")
        }
    }
}
