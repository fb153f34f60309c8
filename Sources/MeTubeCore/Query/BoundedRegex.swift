import Foundation

/// A regular expression whose every evaluation is bounded in time: ICU reports progress at each
/// place a match is tried and periodically while one backtracks, and an evaluation that runs past
/// ``timeLimit`` is stopped there and reported as ``Outcome/stopped`` (catastrophic patterns such
/// as `(a+)+$` on a long title never hang the caller).
public struct BoundedRegex: Sendable {
    /// What one evaluation found.
    public enum Outcome: Sendable, Equatable {
        case match
        case noMatch
        /// The limit stopped the evaluation before it could decide.
        case stopped
    }

    /// The longest pattern accepted, in characters.
    public static let maximumPatternLength = 1_000
    /// Time one evaluation may take, in nanoseconds (10 ms).
    public static let timeLimit: UInt64 = 10_000_000

    /// The pattern as written.
    public let pattern: String
    private let expression: SendableExpression
    /// Rules out most titles of a plain-text pattern without running ICU (see ``RegexPrefilter``).
    private let prefilter: RegexPrefilter?

    /// Compiles `pattern`, case-insensitive unless it turns that off with `(?-i)`; `nil` when it
    /// is not a valid ICU regular expression.
    public init?(_ pattern: String) {
        guard pattern.count <= Self.maximumPatternLength,
              let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return nil }
        self.pattern = pattern
        self.expression = SendableExpression(expression: expression)
        prefilter = RegexPrefilter(pattern: pattern)
    }

    /// Looks for the first match in `text`, within the limits.
    public func firstMatch(in text: String) -> Outcome {
        if let prefilter, prefilter.excludes(text) { return .noMatch }
        return firstMatchByICU(in: text)
    }

    /// Looks for the first match in `text` with ICU alone, without the prefilter (what the
    /// prefilter's differential test compares with).
    func firstMatchByICU(in text: String) -> Outcome {
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.timeLimit
        var outcome = Outcome.noMatch
        let range = NSRange(text.startIndex..., in: text)
        expression.expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                outcome = .match
                stop.pointee = true
                return
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                outcome = .stopped
                stop.pointee = true
            }
        }
        return outcome
    }
}

/// An `NSRegularExpression`, which is immutable once compiled and safe to share between threads
/// (Apple documents it as thread-safe), though swift-corelibs-foundation does not mark it `Sendable`.
private struct SendableExpression: @unchecked Sendable {
    let expression: NSRegularExpression
}
