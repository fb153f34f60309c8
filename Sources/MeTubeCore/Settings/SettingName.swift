/// Every setting of the config file, by its one spelling: `section.key` in kebab-case.
///
/// This table drives parsing, range checks and `metube config show`; `ExampleConfigTests` holds
/// metube-config(5) and the example config to it, so they cannot disagree. The `[keys]` section
/// (key bindings) is read separately, as ``KeyBindingSetting``s.
public enum SettingName: String, CaseIterable, Sendable, Hashable, Comparable {
    case hubURL = "hub.url"
    case source = "hub.source"
    case pageSize = "hub.page-size"
    case concurrency = "hub.concurrency"
    case followHubChannels = "hub.follow-hub-channels"
    case feedURLTemplate = "hub.feed-url-template"
    case feedRate = "hub.rate"
    case backfill = "hub.backfill"
    case hubInterval = "sync.hub-interval"
    case markSyncInterval = "sync.status-interval"
    case open = "tui.open"
    case markOnOpen = "tui.mark-on-open"
    case ascii = "tui.ascii"
    case player = "tui.player"
    case resume = "tui.resume"
    case resumeRewind = "tui.resume-rewind"
    case watchedAt = "tui.watched-at"
    case thumbnails = "tui.thumbnails"
    case thumbnailCache = "tui.thumbnail-cache"
    case lockTimeout = "store.lock-timeout"
    case sponsorBlockEnabled = "sponsorblock.enabled"
    case sponsorBlockCategories = "sponsorblock.categories"
    case sponsorBlockAPI = "sponsorblock.api"
    case youTubeClientID = "youtube.client-id"
    case youTubeClientSecret = "youtube.client-secret"
    case youTubeOAuthURL = "youtube.oauth-url"
    case youTubeAPIURL = "youtube.api-url"
    case youTubeAPIKey = "youtube.api-key"
    case youTubeAPIKeyFile = "youtube.api-key-file"
    case downloadCommand = "download.command"
    case downloadDirectory = "download.dir"
    case downloadFormat = "download.format"
    case downloadConcurrency = "download.concurrency"
    case downloadQuota = "download.quota"
    case downloadKeepWatched = "download.keep-watched"
    case downloadURLTemplate = "download.url-template"
    case downloadInBackground = "download.background"

    /// The sections of the file that hold settings of this table, plus `keys`.
    public static let sections = ["hub", "sync", "tui", "store", "sponsorblock", "youtube", "download", "keys"]

    /// The section, e.g. `hub`.
    public var section: String { String(rawValue.prefix { $0 != "." }) }

    /// The key inside the section, e.g. `page-size`.
    public var key: String { String(rawValue.drop { $0 != "." }.dropFirst()) }

    /// The kind of value and the range it must lie in.
    public var kind: SettingKind {
        switch self {
        case .hubURL: .webURL
        case .open, .feedURLTemplate, .youTubeClientID, .youTubeClientSecret: .text
        case .youTubeOAuthURL, .youTubeAPIURL: .webURL
        case .source: .choice(["hub", "youtube", "direct"])
        case .pageSize: .whole(1...500)
        case .concurrency: .whole(1...64)
        case .feedRate: .number(0.1...1_000)
        case .backfill: .whole(0...500)
        case .youTubeAPIKey: .apiKey
        case .youTubeAPIKeyFile: .absolutePath
        case .followHubChannels, .ascii: .flag
        case .hubInterval, .markSyncInterval: .seconds(1...604_800, zeroTurnsOff: true)
        case .markOnOpen: .choice(["never", "on-success", "always"])
        case .lockTimeout: .seconds(0...600, zeroTurnsOff: false)
        case .player: .choice(["auto", "mpv", "open"])
        case .resume: .choice(["always", "ask", "never"])
        case .resumeRewind: .seconds(0...600, zeroTurnsOff: false)
        case .watchedAt: .number(0.1...1)
        case .thumbnails: .choice(["auto", "symbols", "kitty", "sixel", "off"])
        case .thumbnailCache: .whole(1...10_000)
        case .sponsorBlockEnabled: .flag
        case .sponsorBlockCategories: .list(SponsorSegment.categories)
        case .sponsorBlockAPI: .webURL
        case .downloadCommand, .downloadFormat: .text
        case .downloadDirectory: .absolutePath
        case .downloadConcurrency: .whole(1...8)
        case .downloadQuota: .number(0...1_000_000)
        case .downloadKeepWatched: .whole(0...36_500)
        case .downloadURLTemplate: .template("{videoId}")
        case .downloadInBackground: .flag
        }
    }

    /// The value when nothing sets it; `nil` for "not set".
    public var defaultValue: SettingValue? {
        switch self {
        case .hubURL, .open, .feedURLTemplate, .youTubeClientID, .youTubeClientSecret, .youTubeAPIKey, .youTubeAPIKeyFile: nil
        case .youTubeOAuthURL: .text("https://oauth2.googleapis.com")
        case .youTubeAPIURL: .text("https://www.googleapis.com/youtube/v3")
        case .source: .text("hub")
        case .pageSize: .whole(100)
        case .concurrency: .whole(8)
        case .feedRate: .number(100)
        case .backfill: .whole(50)
        case .followHubChannels, .ascii: .flag(false)
        case .hubInterval: .seconds(3600)
        case .markSyncInterval: .seconds(300)
        case .markOnOpen: .text("on-success")
        case .lockTimeout: .seconds(5)
        case .player: .text("auto")
        case .resume: .text("always")
        case .resumeRewind: .seconds(5)
        case .watchedAt: .number(0.9)
        case .thumbnails: .text("auto")
        case .thumbnailCache: .whole(100)
        case .sponsorBlockEnabled: .flag(false)
        case .sponsorBlockCategories: .list(["sponsor", "selfpromo"])
        case .sponsorBlockAPI: .text("https://sponsor.ajay.app")
        case .downloadCommand: .text("yt-dlp")
        case .downloadDirectory: nil
        case .downloadFormat: .text("bv*[height<=720]+ba/b[height<=720]")
        case .downloadConcurrency: .whole(1)
        case .downloadQuota: .number(0)
        case .downloadKeepWatched: .whole(0)
        case .downloadURLTemplate: .text("https://www.youtube.com/watch?v={videoId}")
        case .downloadInBackground: .flag(true)
        }
    }

    /// Spellings older versions of metube used; still read, with a deprecation note.
    public var deprecatedKeys: [String] {
        switch self {
        case .pageSize: ["page_size"]
        case .followHubChannels: ["follow_hub_channels"]
        case .feedURLTemplate: ["feed_url_template"]
        case .hubInterval: ["hub_interval"]
        case .markSyncInterval: ["status_interval"]
        default: []
        }
    }

    /// The environment variable that overrides the file, if any.
    public var environmentVariable: String? {
        switch self {
        case .hubURL: "METUBE_HUB_URL"
        case .lockTimeout: "METUBE_LOCK_TIMEOUT"
        case .youTubeClientID: "METUBE_YOUTUBE_CLIENT_ID"
        case .youTubeClientSecret: "METUBE_YOUTUBE_CLIENT_SECRET"
        case .youTubeOAuthURL: "METUBE_YOUTUBE_OAUTH_URL"
        case .youTubeAPIURL: "METUBE_YOUTUBE_API_URL"
        case .youTubeAPIKey: "METUBE_YOUTUBE_API_KEY"
        default: nil
        }
    }

    /// The setting `key` names in `section`, by its spelling or an old one.
    static func named(_ key: String, in section: String) -> (name: SettingName, isDeprecated: Bool)? {
        for name in allCases where name.section == section {
            if name.key == key { return (name, false) }
            if name.deprecatedKeys.contains(key) { return (name, true) }
        }
        return nil
    }

    public static func < (lhs: SettingName, rhs: SettingName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
