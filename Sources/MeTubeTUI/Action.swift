/// Everything a user can do with a key in the TUI.
///
/// One table (``Action/info``) drives the default key bindings, the `?` help screen and the names
/// the config file's `[keys]` section uses, so the three can never disagree.
public enum Action: String, CaseIterable, Sendable, Hashable {
    case moveDown = "move-down"
    case moveUp = "move-up"
    case pageDown = "page-down"
    case pageUp = "page-up"
    case moveFirst = "move-first"
    case moveLast = "move-last"
    case toggleWatched = "toggle-watched"
    case toggleSkipped = "toggle-skipped"
    case markUnwatched = "mark-unwatched"
    case markAllSkipped = "mark-all-skipped"
    case markAllWatched = "mark-all-watched"
    case undo
    case toggleQueue = "toggle-queue"
    case open
    case copyURL = "copy-url"
    case toggleShorts = "toggle-shorts"
    case search
    case nextMatch = "next-match"
    case previousMatch = "previous-match"
    case cycleFilter = "cycle-filter"
    case views
    case jumpToView = "jump-to-view"
    case channels
    case retryFailing = "retry-failing"
    case editTags = "edit-tags"
    case importYouTube = "import-youtube"
    case followChannel = "follow-channel"
    case conflicts
    case queue
    case downloads
    case keepMine = "keep-mine"
    case takeTheirs = "take-theirs"
    case back
    case toggleDetails = "toggle-details"
    case scrollDetailsDown = "details-down"
    case scrollDetailsUp = "details-up"
    case nextDetailsItem = "details-next"
    case previousDetailsItem = "details-previous"
    case useDetailsItem = "details-use"
    case syncNow = "sync-now"
    case fullResync = "full-resync"
    case help
    case quit

    /// The name, default keys, help text and group of this action.
    public var info: ActionInfo {
        switch self {
        case .moveDown: ActionInfo(keys: ["j", "Down"], help: "Move down", group: .navigation)
        case .moveUp: ActionInfo(keys: ["k", "Up"], help: "Move up", group: .navigation)
        case .pageDown: ActionInfo(keys: ["PgDn", "C-f"], help: "Page down", group: .navigation)
        case .pageUp: ActionInfo(keys: ["PgUp", "C-b"], help: "Page up", group: .navigation)
        case .moveFirst: ActionInfo(keys: ["g", "Home"], help: "Go to the first (newest) row", group: .navigation)
        case .moveLast: ActionInfo(keys: ["G", "End"], help: "Go to the last (oldest) row", group: .navigation)
        case .toggleWatched: ActionInfo(keys: ["w"], help: "Toggle watched", group: .marks)
        case .toggleSkipped: ActionInfo(keys: ["s"], help: "Toggle skipped", group: .marks)
        case .markUnwatched: ActionInfo(keys: ["u"], help: "Mark unwatched", group: .marks)
        case .markAllSkipped: ActionInfo(keys: ["A"], help: "Mark every video of the view skipped (asks first)", group: .marks)
        case .markAllWatched: ActionInfo(keys: ["W"], help: "Mark every video of the view watched (asks first)", group: .marks)
        case .undo: ActionInfo(keys: ["U"], help: "Undo the last mark, batch or sync's rule marks (again for older ones)", group: .marks)
        case .toggleQueue: ActionInfo(keys: ["l"], help: "Add to or take out of the watch-later queue", group: .marks)
        case .open: ActionInfo(keys: ["Enter", "o"], help: "Open the video (or the channel)", group: .marks)
        case .copyURL: ActionInfo(keys: ["y"], help: "Copy the video's URL (OSC 52)", group: .marks)
        case .toggleShorts: ActionInfo(keys: ["S"], help: "Hide or show Shorts", group: .views)
        case .search: ActionInfo(keys: ["/"], help: "Search titles and channels", group: .views)
        case .nextMatch: ActionInfo(keys: ["n"], help: "Next search match", group: .views)
        case .previousMatch: ActionInfo(keys: ["N"], help: "Previous search match", group: .views)
        case .cycleFilter: ActionInfo(keys: ["f"], help: "Cycle filter: unwatched, all, watched, skipped, in progress, upcoming", group: .views)
        case .views: ActionInfo(keys: ["v"], help: "Views: pick one, with unseen counts", group: .views)
        case .jumpToView: ActionInfo(keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9"], help: "Switch to the first nine views (the n-th key, the n-th view)", group: .views)
        case .channels: ActionInfo(keys: ["c"], help: "Channels with unseen counts", group: .views)
        case .retryFailing: ActionInfo(keys: ["F"], help: "Channels: fetch the failing channels again", group: .views)
        case .editTags: ActionInfo(keys: ["T"], help: "Channels: edit the channel's tags (comma-separated)", group: .views)
        case .importYouTube: ActionInfo(keys: ["I"], help: "Channels: follow your YouTube subscriptions (after metube youtube login)", group: .views)
        case .followChannel: ActionInfo(keys: ["a"], help: "Channels: follow a channel: paste a link, @handle or video link (Enter; Esc cancels)", group: .views)
        case .conflicts: ActionInfo(keys: ["C"], help: "Conflicts between devices", group: .views)
        case .queue: ActionInfo(keys: ["L"], help: "Watch-later queue; J/K move a video in it (details pane closed)", group: .views)
        case .downloads: ActionInfo(keys: ["D"], help: "Downloads: each queued video's copy, progress, or why it waits or failed", group: .views)
        case .keepMine: ActionInfo(keys: ["m"], help: "Conflicts: keep my value", group: .views)
        case .takeTheirs: ActionInfo(keys: ["t"], help: "Conflicts: take the other device's value", group: .views)
        case .back: ActionInfo(keys: ["Esc"], help: "Back", group: .views)
        case .toggleDetails: ActionInfo(keys: ["Tab"], help: "Details pane: thumbnail, dates, mark, position, description", group: .views)
        case .scrollDetailsDown: ActionInfo(keys: ["J"], help: "Details pane: scroll the description down", group: .views)
        case .scrollDetailsUp: ActionInfo(keys: ["K"], help: "Details pane: scroll the description up", group: .views)
        case .nextDetailsItem: ActionInfo(keys: ["]"], help: "Details pane: select the next chapter or link", group: .views)
        case .previousDetailsItem: ActionInfo(keys: ["["], help: "Details pane: select the previous chapter or link", group: .views)
        case .useDetailsItem: ActionInfo(keys: ["P"], help: "Details pane: play from the selected chapter, or copy the selected link (OSC 52)", group: .views)
        case .syncNow: ActionInfo(keys: ["r"], help: "Sync now", group: .general)
        case .fullResync: ActionInfo(keys: ["R"], help: "Full resync: fetch everything again (asks first)", group: .general)
        case .help: ActionInfo(keys: ["?"], help: "This help", group: .general)
        case .quit: ActionInfo(keys: ["q"], help: "Quit", group: .general)
        }
    }

    /// The name used in the config file's `[keys]` section, e.g. `toggle-watched`.
    public var name: String { rawValue }
}

/// What the help screen and the key map know about one ``Action``.
public struct ActionInfo: Sendable, Hashable {
    /// The keys bound to the action when the config file says nothing, by ``Key`` name.
    public var keys: [String]
    /// One line for the help screen.
    public var help: String
    /// The help screen's section.
    public var group: ActionGroup
}

/// The sections of the help screen, in the order shown.
public enum ActionGroup: String, CaseIterable, Sendable {
    case navigation = "Navigation"
    case marks = "Marks and opening"
    case views = "Views, search and filters"
    case general = "General"
}
