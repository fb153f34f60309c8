import ArgumentParser
import MeTubeCore

/// Reading a query given on the command line (`--query`), with messages that point at the column.
enum QueryOption {
    /// Parses `text`; a mistake prints the query with a caret under the column and ends the
    /// command with 65.
    static func parse(_ text: String, option: String) throws -> VideoQuery {
        do {
            return try VideoQuery(parsing: text)
        } catch {
            guard case let .invalidQuery(column, _) = error, text.count <= 200, !text.contains("\n") else {
                throw fail("\(option): \(error.description)", code: ExitStatus.badInput)
            }
            let shown = DisplayText.line(text, limit: 200)
            throw fail("\(option): \(error.description)\n  \(shown)\n  \(String(repeating: " ", count: max(column - 1, 0)))^", code: ExitStatus.badInput)
        }
    }

    /// The query both `first` and `second` make, when either is given.
    static func both(_ first: VideoQuery?, _ second: VideoQuery?) -> VideoQuery? {
        guard let first else { return second }
        return second.map(first.and) ?? first
    }

    /// The note that `count` title regex evaluations were stopped by their time limit.
    static func stoppedNote(_ count: Int) -> String {
        "note: a title~ regular expression ran past its time limit on \(count) video\(count == 1 ? "" : "s") (counted as not matching); simplify the pattern"
    }
}
