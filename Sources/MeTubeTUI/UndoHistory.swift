import MeTubeCore

/// One step `U` takes back: a mark, a bulk mark or a sync's rule marks, with the status each
/// video had before.
public struct UndoStep: Sendable, Equatable {
    /// What was done, e.g. "1,234 videos of unwatched skipped".
    public var label: String
    /// Each video the step marked and its status before (unwatched when it had no mark).
    public var previous: [(videoID: String, status: WatchStatus)]

    /// Creates a step.
    public init(label: String, previous: [(videoID: String, status: WatchStatus)]) {
        self.label = label
        self.previous = previous
    }

    /// The step's videos by the status they go back to.
    var restoring: [WatchStatus: [String]] {
        Dictionary(grouping: previous, by: \.status).mapValues { $0.map(\.videoID) }
    }

    public static func == (lhs: UndoStep, rhs: UndoStep) -> Bool {
        lhs.label == rhs.label && lhs.previous.elementsEqual(rhs.previous) { $0.videoID == $1.videoID && $0.status == $1.status }
    }
}

/// The steps `U` can take back, newest last; bounded in steps and in videos, the oldest steps
/// dropped first, so a long session's history cannot grow without end.
public struct UndoHistory: Sendable, Equatable {
    /// The most steps kept.
    public static let stepLimit = 20
    /// The most videos kept across all steps (the newest step is always kept whole).
    public static let videoLimit = 400_000

    /// The steps, oldest first.
    public private(set) var steps: [UndoStep] = []

    /// An empty history.
    public init() {}

    /// Adds `step` as the newest, dropping the oldest steps beyond the bounds.
    public mutating func push(_ step: UndoStep) {
        steps.append(step)
        var videos = steps.reduce(0) { $0 + $1.previous.count }
        while steps.count > Self.stepLimit || (steps.count > 1 && videos > Self.videoLimit) {
            videos -= steps.removeFirst().previous.count
        }
    }

    /// Takes the newest step off, if any.
    public mutating func pop() -> UndoStep? { steps.popLast() }
}
