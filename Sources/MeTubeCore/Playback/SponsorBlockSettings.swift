/// Whether and how sponsor segments are skipped, from the `[sponsorblock]` settings.
public struct SponsorBlockSettings: Sendable, Equatable {
    /// Whether segments are fetched and skipped (off unless the user turns it on: it tells
    /// SponsorBlock's server a 4-character prefix of the hash of each video played).
    public var enabled: Bool
    /// The categories skipped, in SponsorBlock's names.
    public var categories: [String]
    /// The API's base URL, e.g. `https://sponsor.ajay.app`.
    public var api: String

    /// Settings as given.
    public init(enabled: Bool, categories: [String], api: String) {
        self.enabled = enabled
        self.categories = categories
        self.api = api
    }

    /// The settings in `settings`.
    public init(settings: Settings) {
        enabled = settings.flag(.sponsorBlockEnabled)
        categories = settings.list(.sponsorBlockCategories)
        api = settings.text(.sponsorBlockAPI) ?? ""
    }
}
