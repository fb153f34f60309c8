/// Where the rows of a saved view stand while they are computed a step at a time after its first
/// screen (see ``ScreenModel/continueViewScan()``).
struct ViewScan: Sendable, Equatable {
    /// Videos looked at in one step between keys.
    static let videosPerStep = 20_000

    /// The next video of the library to look at.
    var next: Int
    /// Title regexes the view's query stopped so far.
    var stoppedRegexes: Int
}
