import Foundation
import MeTubeCore
import MeTubePlayer
import MeTubeStore
import MeTubeSync

/// The size of the terminal in cells.
public struct TerminalSize: Sendable, Equatable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size of `width` columns by `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The smallest size the TUI draws into; below it, a "terminal too small" message.
    public static let minimum = TerminalSize(width: 40, height: 10)

    /// Whether this size is at least ``minimum``.
    public var isUsable: Bool { width >= Self.minimum.width && height >= Self.minimum.height }
}

/// The views of the TUI.
public enum Screen: Sendable, Equatable {
    case feed, channels, conflicts, help
    /// The view picker (`v`).
    case views
}

/// One followed channel in the channels view.
public struct ChannelSummary: Sendable, Equatable {
    /// The channel id.
    public var id: String
    /// The name shown.
    public var name: String
    /// Videos not yet watched or skipped.
    public var unseen: Int
    /// All videos.
    public var total: Int
    /// The last fetch of the channel's feed, `nil` when it was never fetched directly.
    public var fetch: ChannelFetchResult? = nil
    /// The user's tags of the channel.
    public var tags: [String] = []
    /// Where the channel's follow and tags stand with the mark-sync service; `nil` while it was
    /// never recorded (a channel followed before subscriptions synced).
    public var syncState: SyncState? = nil

    /// Whether the channel's last fetch failed.
    public var isFailing: Bool { fetch?.failingSince != nil }
}

/// Something that happened outside the keyboard that the screen model must know.
public enum ModelEvent: Sendable, Equatable {
    /// The store's library changed (another process, a sync).
    case libraryChanged(Library)
    /// The store made a mark durable.
    case marked(Mark)
    /// The store made these watch-later queue entries durable.
    case queued([QueueEntry])
    /// The store could not make a mark durable.
    case markFailed(videoID: String, message: String)
    /// The store could not write a bulk mark or an undo (``Effect/markBatch(_:)``).
    case batchMarkFailed(message: String)
    /// The player started by an ``Effect/open(videoID:url:markOnSuccess:)`` exited.
    case playerExited(videoID: String, success: Bool, detail: String)
    /// The whole library finished loading behind a first screen drawn from its newest part: it
    /// replaces that part without counting as new arrivals.
    case libraryLoaded(Library)
    /// A tracked player reported (see ``Effect/play(videoID:startSeconds:)``).
    case playback(PlaybackUpdate)
    /// A tracked player could not be started.
    case playerFailed(videoID: String, message: String)
    /// A sync service reported.
    case sync(TUISyncEvent)
    /// The store's record of each channel's last feed fetch changed.
    case channelFetchesChanged([String: ChannelFetchResult])
    /// The details pane's description or picture was loaded.
    case details(DetailsEvent)
    /// The terminal changed size.
    case resized(TerminalSize)
    /// Time passed; relative dates are computed from `now`.
    case tick(Date)
    /// The import of the YouTube subscriptions (``Effect/importYouTube``) moved on or ended.
    case youTubeImport(YouTubeImportProgress)
    /// The background downloads of the queue moved on.
    case download(DownloadEvent)
    /// The lookup of ``Effect/resolveChannel(_:)`` found this channel id (checked by the model).
    case channelResolved(ChannelLookup, channelID: String)
    /// The lookup of ``Effect/resolveChannel(_:)`` failed, for this reason.
    case channelNotResolved(ChannelLookup, reason: String)
    /// The channel of ``Effect/follow(channelID:)`` is followed; `added` is `false` when it already was.
    case followed(channelID: String, added: Bool)
}

/// The whole state of the TUI as a value: keys and events go in, a new state and ``Effect``s come
/// out. Tests drive it without a terminal; the renderer draws it into a ``CellGrid``.
public struct ScreenModel: Sendable {
    /// The library shown.
    public internal(set) var library: Library
    /// Whether every video's status is known, so videos without a mark count as unwatched.
    public internal(set) var statusesKnown: Bool
    /// Key bindings.
    public let keyMap: KeyMap
    /// When opening a video marks it.
    public let markOnOpen: MarkOnOpen
    /// Whether to draw UTF-8 badges (else ASCII).
    public let unicode: Bool
    /// The time relative dates count from.
    public internal(set) var now: Date
    /// The time zone clock times are shown in.
    public let timeZone: TimeZone
    /// The terminal size.
    public internal(set) var size: TerminalSize

    /// The view on screen.
    public internal(set) var screen: Screen = .feed
    /// What the feed shows (the search text is not a filter: `/` moves between matches).
    public internal(set) var query: FeedQuery
    /// The feed's rows, as indices into `library.videos`, ascending (newest first); in the
    /// `upcoming` view, by scheduled start instead.
    public internal(set) var rows: [Int] = []
    /// Each video's status, aligned with `library.videos`, so a filter change is one array scan.
    var statuses: [DisplayStatus] = []
    /// Each video's ``VideoFlags``, aligned with `library.videos`.
    var videoFlags: [VideoFlags] = []
    /// Counts library replacements, so a search index built in the background for an older
    /// library is not used.
    public internal(set) var libraryGeneration = 0
    /// The feed's selection and scroll.
    public internal(set) var feedCursor = ListCursor()
    /// Videos marked since the filter was last applied: they stay in the feed until it changes.
    var stickyVideoIDs: Set<String> = []

    /// The search text being typed after `/`, `nil` when not typing.
    public internal(set) var searchInput: String?
    /// The channel whose tags are being edited after `T`, and the text typed; `nil` when not editing.
    public internal(set) var tagInput: TagInput?
    /// The channel link being typed or resolved after `a` in the channels view; `nil` when not following.
    public internal(set) var followInput: ChannelLinkInput?
    /// How many channel lookups `a` started, to number the next.
    var channelLookups = 0
    /// The last search, for `n` and `N`.
    public internal(set) var searchText = ""
    /// How many feed rows match ``searchText`` (so far, while ``isCountingMatches``).
    public internal(set) var searchMatchCount = 0
    var searchOrigin = 0
    var searchIndex: SearchIndex?
    /// The search scan still under way over a large feed (see ``continueSearch()``).
    var searchScan: SearchScan?

    /// Each channel's last feed fetch, by channel id.
    public internal(set) var channelFetches: [String: ChannelFetchResult] = [:]
    /// The channels view's rows.
    public internal(set) var channelList: [ChannelSummary] = []
    /// The channels view's selection and scroll.
    public internal(set) var channelCursor = ListCursor()
    /// The conflicts view's rows, as video ids.
    public internal(set) var conflictList: [String] = []
    /// The conflicts view's selection and scroll.
    public internal(set) var conflictCursor = ListCursor()
    /// The help screen's selection and scroll.
    public internal(set) var helpCursor = ListCursor()

    /// The views `v` and `1`–`9` pick from, in the picker's order.
    public let views: [SavedView]
    /// The view in use, an index into ``views``.
    public internal(set) var viewIndex = 0
    /// The view picker's selection and scroll.
    public internal(set) var viewCursor = ListCursor()
    /// Each view's unseen and total videos, aligned with ``views``, counted when the picker opens.
    public internal(set) var viewCounts: [ViewCount] = []
    /// Whether `hide` rules leave each video out, aligned with `library.videos`; empty when no
    /// rule hides.
    var hiddenByRules: [Bool] = []
    /// A saved view's rows still being computed past its first screen.
    var viewScan: ViewScan?
    /// The bulk mark waiting for `y` or `n`.
    public internal(set) var pendingBulkMark: BulkMark?
    /// What `U` can take back, newest last.
    public internal(set) var undoHistory = UndoHistory()

    /// The transient message, if any.
    public internal(set) var message: FooterMessage?
    /// Whether the next key answers "full resync?" (`y` starts it, anything else cancels).
    public internal(set) var isConfirmingFullResync = false
    /// Videos that arrived since the user last went to the top.
    public internal(set) var newCount = 0
    /// Where each sync service stands.
    public internal(set) var services: [RemoteService: ServiceState] = [.videoSource: .notConfigured, .markSyncService: .notConfigured]
    /// The name of the video source on the status line: `hub` or `youtube`.
    public internal(set) var videoSourceName = "hub"
    /// Marks waiting to reach the mark-sync service.
    public internal(set) var pendingCount = 0
    /// Marks in conflict with another device.
    public internal(set) var conflictCount = 0
    /// Whether the user asked to leave.
    public internal(set) var wantsQuit = false
    /// While ``library`` is only the newest part of a store still loading: how many videos the
    /// whole holds (as of its snapshot); `nil` once everything is loaded.
    public internal(set) var loadingVideoCount: Int?
    /// The tracked player's settings, `nil` when videos go to the open command.
    public let player: PlayerSettings?
    /// Tracked players now running, by video id, with what each last reported.
    public internal(set) var playing: [String: PlaybackUpdate] = [:]
    /// The offline copies and the queue's downloads.
    public internal(set) var downloads = DownloadsState()
    /// The resume question waiting for `y` or `n` (`resume = "ask"`).
    public internal(set) var resumeQuestion: ResumeQuestion?
    /// The details pane (`Tab`).
    public internal(set) var details = DetailsPane()
    /// Whether the feed shows the watch-later queue, in its order (see ScreenModel+Queue).
    public internal(set) var showsQueue = false
    /// Whether the queue is shown as the downloads view (see ScreenModel+Downloads).
    public internal(set) var showsDownloads = false
    /// Whether an import of the YouTube subscriptions (`I`) is under way.
    public internal(set) var isImportingYouTube = false

    /// A model showing `library`'s unwatched feed at `size`.
    public init(
        library: Library, size: TerminalSize, config: TUIConfig = TUIConfig(), unicode: Bool = true,
        now: Date = Date(), timeZone: TimeZone = .current, statusesKnown: Bool = false
    ) {
        self.library = library
        self.size = size
        keyMap = config.keyMap
        markOnOpen = config.markOnOpen
        player = config.player
        self.unicode = unicode && !config.forceASCII
        self.now = now
        self.timeZone = timeZone
        self.statusesKnown = statusesKnown
        query = FeedQuery()
        query.rules = config.rules
        views = config.views.isEmpty ? SavedView.builtIn : config.views
        viewIndex = views.firstIndex { $0.query == nil && $0.filter == query.filter } ?? 0
        details.showsPictures = config.thumbnails != .off
        recomputeStatuses()
        rebuildRows()
    }

    /// Rows of the screen available to a list: all but the header, status line and message line,
    /// and the details pane when it sits below the list.
    public var listHeight: Int { max(size.height - 3 - (detailsLayout?.listRowsTaken ?? 0), 1) }

    /// The video of the selected feed row, if any.
    public var selectedVideo: Video? {
        rows.isEmpty ? nil : library.videos[rows[feedCursor.selection]]
    }

    /// How the video at `index` of the library shows: its mark's status or unknown/unwatched.
    public func status(ofVideoAt index: Int) -> DisplayStatus {
        statuses[index]
    }

    /// Handles one key press.
    public mutating func handle(_ key: Key) -> [Effect] {
        if searchInput != nil { return handleSearchInput(key) }
        if tagInput != nil { return handleTagInput(key) }
        if followInput != nil { return handleFollowInput(key) }
        if isConfirmingFullResync { return confirmFullResync(key) }
        if resumeQuestion != nil { return answerResume(key) }
        if pendingBulkMark != nil { return confirmBulkMark(key) }
        guard let action = keyMap.action(for: key) else {
            message = FooterMessage(text: keyMap.message("\(key.name) does nothing here", hints: [(.help, "shows the keys")]), isError: false)
            return []
        }
        if action == .jumpToView { return jumpToView(key) }
        return perform(action)
    }

    /// Performs one action as if its key had been pressed.
    public mutating func perform(_ action: Action) -> [Effect] {
        message = nil
        finishViewScan()
        if let effects = performQueue(action) { return effects }
        switch action {
        case .quit:
            wantsQuit = true
            return [.quit]
        case .help:
            screen = screen == .help ? .feed : .help
            return []
        case .syncNow:
            guard services.values.contains(where: { $0 != .notConfigured }) else {
                message = FooterMessage(text: "sync is not configured", isError: false)
                return []
            }
            message = FooterMessage(text: "syncing…", isError: false)
            return [.syncNow]
        case .fullResync:
            return askForFullResync()
        case .toggleDetails, .scrollDetailsDown, .scrollDetailsUp:
            return performDetails(action)
        case .nextDetailsItem, .previousDetailsItem, .useDetailsItem:
            return performDetailsItem(action)
        case .undo:
            return undoLastMarks()
        default:
            break
        }
        switch screen {
        case .feed: return performInFeed(action)
        case .channels: return performInChannels(action)
        case .conflicts: return performInConflicts(action)
        case .help: return performInHelp(action)
        case .views: return performInViewPicker(action)
        }
    }

    /// Takes in something that happened outside the keyboard.
    public mutating func apply(_ event: ModelEvent) -> [Effect] {
        switch event {
        case .libraryChanged(let changed):
            replaceLibrary(changed)
        case .libraryLoaded(let loaded):
            loadingVideoCount = nil
            replaceLibrary(loaded, countingNew: false)
        case .marked(let mark):
            setMark(mark)
        case .queued(let entries):
            applyQueued(entries)
        case .markFailed(let videoID, let text):
            message = FooterMessage(text: "could not mark \(videoID): \(text)", isError: true)
        case .batchMarkFailed(let text):
            batchMarkFailed(text)
        case .playerExited(let videoID, let success, let detail):
            if success {
                return markVideo(videoID, as: .watched)
            }
            message = FooterMessage(text: "player failed: \(detail)", isError: true)
        case .playback(let update):
            return applyPlayback(update)
        case .playerFailed(let videoID, let text):
            playing[videoID] = nil
            message = FooterMessage(text: "cannot play \(videoID): \(text)", isError: true)
        case .sync(let syncEvent):
            applySync(syncEvent)
        case .channelFetchesChanged(let fetches):
            guard fetches != channelFetches else { return [] }
            channelFetches = fetches
            if screen == .channels { rebuildChannels() }
        case .details(let detailsEvent):
            applyDetails(detailsEvent)
        case .resized(let newSize):
            size = newSize
            clampCursors()
        case .tick(let date):
            now = date
        case .youTubeImport(let progress):
            return applyYouTubeImport(progress)
        case .download(let downloadEvent):
            downloads.apply(downloadEvent)
        case .channelResolved(let lookup, let channelID):
            return channelResolved(lookup, to: channelID)
        case .channelNotResolved(let lookup, let reason):
            return channelNotResolved(lookup, reason: reason)
        case .followed(let channelID, let added):
            return channelFollowed(channelID, added: added)
        }
        return []
    }

    private mutating func applySync(_ event: TUISyncEvent) {
        switch event {
        case .service(let service, let state):
            services[service] = state
        case .statusesKnown(let known):
            guard known != statusesKnown else { return }
            let selectedID = selectedVideo?.id
            statusesKnown = known
            recomputeStatuses()
            refilter(keeping: selectedID)
        case .message(let text, let isError):
            message = FooterMessage(text: text, isError: isError)
        case .storeChanged:
            break
        case .backfilled(let count):
            newCount = max(0, newCount - count)
        }
    }

    /// Marks `videoID` in memory at once (pending) and asks the loop to make it durable.
    mutating func markVideo(_ videoID: String, as status: WatchStatus) -> [Effect] {
        let previous = library.marks[videoID]
        undoHistory.push(UndoStep(label: "\(videoID) \(status.rawValue)", previous: [(videoID, previous?.status ?? .unwatched)]))
        setMark(Mark(
            videoID: videoID, status: status, hlc: previous?.hlc ?? HybridTimestamp(millis: 0),
            deviceID: previous?.deviceID ?? "", syncState: .pending, base: previous?.base
        ))
        stickyVideoIDs.insert(videoID)
        return [.mark(videoID: videoID, status: status)]
    }

    /// Records `mark` in the library, keeping the status array and the counts in step.
    /// `index` is the video's index in `library.videos` when the caller knows it.
    mutating func setMark(_ mark: Mark, at index: Int? = nil) {
        let old = library.marks[mark.videoID]
        count(old?.syncState, by: -1)
        count(mark.syncState, by: 1)
        library.apply(mark)
        if let index = index ?? library.index(of: mark.videoID) { statuses[index] = DisplayStatus(mark.status) }
    }

    private mutating func count(_ state: SyncState?, by delta: Int) {
        switch state {
        case .pending?, .offline?: pendingCount += delta
        case .conflict?: conflictCount += delta
        case .synced?, nil: break
        }
    }

    /// Recomputes every video's status and the pending and conflict counts from the library.
    mutating func recomputeStatuses() {
        statuses = library.videos.map { FeedQuery.status(of: library.marks[$0.id], statusesKnown: statusesKnown) }
        videoFlags = VideoFlags.of(library)
        pendingCount = 0
        conflictCount = 0
        for mark in library.marks { count(mark.syncState, by: 1) }
        recomputeHiddenByRules()
    }

    private mutating func replaceLibrary(_ changed: Library, countingNew: Bool = true) {
        let added = countingNew ? Self.listedCount(changed, now: now) - Self.listedCount(library, now: now) : 0
        let selectedID = selectedVideo?.id
        if added > 0 { rememberRuleMarks(in: changed) }
        library = changed
        libraryGeneration += 1
        searchIndex = nil
        if added > 0, !rows.isEmpty { newCount += added }
        recomputeStatuses()
        refilter(keeping: selectedID)
        if screen == .channels { rebuildChannels() }
        if screen == .conflicts { rebuildConflicts() }
        if screen == .views { countViews() }
    }

    /// How many videos of `library` the lists that promise something to watch can show: an
    /// upcoming video that becomes available counts as new, as a video that arrives does.
    private static func listedCount(_ library: Library, now: Date) -> Int {
        library.videos.count - library.videos.reduce(0) { $0 + ($1.availability == .available || !$1.isHiddenFromLists(now: now) ? 0 : 1) }
    }

    private mutating func clampCursors() {
        feedCursor.clamp(count: rows.count, visible: listHeight)
        channelCursor.clamp(count: channelList.count, visible: listHeight)
        conflictCursor.clamp(count: conflictList.count, visible: listHeight)
        helpCursor.clamp(count: HelpText.lines(keyMap).count, visible: listHeight)
        viewCursor.clamp(count: views.count, visible: listHeight)
    }
}
