import Foundation
import MeTubeCore
import MeTubeYouTube

/// How the server reaches the YouTube Data API to enrich videos (durations, availability) and channels
/// (thumbnails, titles), and how many quota units it may spend a day.
public struct YouTubeAPIConfiguration: Sendable, Equatable {
    /// The Data API's base URL.
    public static let defaultBaseURL = YouTubeDataAPI.defaultBaseURL
    /// The environment variable read for the key when no option gives one.
    public static let keyEnvironmentVariable = "METUBE_YOUTUBE_API_KEY"
    /// The quota units a Google Cloud project gets a day unless Google granted more.
    public static let defaultDailyUnits = 10_000

    /// The API key (never logged).
    public var key: String
    /// The units the server may spend per UTC day; each `videos.list` or `channels.list` call costs 1.
    public var dailyUnits: Int
    /// The API's base URL, without a trailing slash (a loopback stub in tests).
    public var baseURL: String
    /// The longest the enrichment sleeps when no ingestion wakes it.
    public var idleInterval: Duration

    /// Creates a configuration; checked by ``validate()``.
    public init(key: String, dailyUnits: Int = Self.defaultDailyUnits, baseURL: String = Self.defaultBaseURL, idleInterval: Duration = .seconds(300)) {
        self.key = key
        self.dailyUnits = dailyUnits
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.idleInterval = idleInterval
    }

    /// Checks the settings; throws `ServerError.invalidConfiguration` naming the bad one (never
    /// quoting the key).
    public func validate() throws(ServerError) {
        try Self.checkKey(key)
        guard (1...100_000_000).contains(dailyUnits) else { throw .invalidConfiguration("--youtube-daily-units must be 1…100000000") }
        try WebSubConfiguration.checkURL(baseURL, option: "--youtube-api-url", allowsQuery: false)
        guard idleInterval > .zero else { throw .invalidConfiguration("the enrichment interval must be positive") }
    }

    private static let malformedKey = ServerError.invalidConfiguration("the YouTube API key must be 1…256 characters of A-Z, a-z, 0-9, '-' and '_'")

    /// Checks that `key` looks like a Google API key: 1…256 characters of `[A-Za-z0-9_-]`.
    public static func checkKey(_ key: String) throws(ServerError) {
        guard SettingValue.isAPIKey(key) else { throw malformedKey }
    }

    /// The key from `option` (`--youtube-api-key`), else the file `file` (`--youtube-api-key-file`,
    /// surrounding whitespace removed), else `environment[METUBE_YOUTUBE_API_KEY]`; nil when none
    /// gives one. Giving both options, an unreadable or oversized file, or a malformed key throws.
    public static func key(option: String?, file: String?, environment: [String: String]) throws(ServerError) -> String? {
        if option != nil, file != nil {
            throw .invalidConfiguration("give --youtube-api-key or --youtube-api-key-file, not both")
        }
        let key: String?
        if let option {
            key = option
        } else if let file {
            switch APIKeyFile.read(file) {
            case .key(let read): key = read
            case .unreadable: throw .invalidConfiguration("cannot read the YouTube API key file \(file)")
            case .notText: throw .invalidConfiguration("the YouTube API key file \(file) must be a UTF-8 text of at most \(APIKeyFile.maximumBytes) bytes")
            case .notAKey: throw Self.malformedKey
            }
        } else if let value = environment[keyEnvironmentVariable], !value.isEmpty {
            key = value
        } else {
            key = nil
        }
        if let key { try checkKey(key) }
        return key
    }
}
