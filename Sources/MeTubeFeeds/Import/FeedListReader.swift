import MeTubeCore

/// Reads line lists of feeds: newsboat's `urls` file and plain lists of channel ids or URLs.
///
/// Each line is split as newsboat splits it: tokens separated by spaces or tabs, double quotes
/// grouping a token (with `\"`, `\\`, `\n`, `\r`, `\t` escapes inside), and an unquoted token that
/// starts with `#` opening a comment to the end of the line. The first token names the feed; a later
/// token starting with `~` is its title, one starting with `!` hides the feed, and the others are
/// its tags. Lines that name no YouTube channel are rejected.
enum FeedListReader {
    /// Reads every line of `text` into `collector`.
    static func read(_ text: SubscriptionText, into collector: inout ImportCollector) {
        for (number, line) in text.nonBlankLines {
            let tokens = tokens(of: line)
            guard let feed = tokens.first else { continue }
            let location = "line \(number)"
            if feed.hasPrefix("query:") {
                collector.reject(feed, at: location, reason: "a newsboat query feed, not a channel")
                continue
            }
            let title = tokens.dropFirst().last { $0.hasPrefix("~") }.map { String($0.dropFirst()) }
            let tags = tokens.dropFirst().filter { !$0.hasPrefix("~") && !$0.hasPrefix("!") }
            collector.offer(feed, title: title, tags: tags, at: location)
        }
    }

    /// The tokens of one line, up to a comment.
    static func tokens(of line: some StringProtocol) -> [String] {
        var tokens: [String] = []
        var scalars = Substring(line).unicodeScalars
        while true {
            scalars = scalars.drop { $0 == " " || $0 == "\t" }
            guard let first = scalars.first, first != "#" else { return tokens }
            if first == "\"" {
                tokens.append(readQuoted(&scalars))
            } else {
                let token = scalars.prefix { $0 != " " && $0 != "\t" }
                tokens.append(String(token))
                scalars = scalars.dropFirst(token.count)
            }
        }
    }

    /// Reads a quoted token from `scalars`, which starts at its opening quote, and consumes it.
    private static func readQuoted(_ scalars: inout Substring.UnicodeScalarView) -> String {
        var token = String.UnicodeScalarView()
        scalars = scalars.dropFirst()
        while let scalar = scalars.popFirst(), scalar != "\"" {
            guard scalar == "\\", let escaped = scalars.popFirst() else {
                token.append(scalar)
                continue
            }
            switch escaped {
            case "n": token.append("\n")
            case "r": token.append("\r")
            case "t": token.append("\t")
            default: token.append(escaped)
            }
        }
        return String(token)
    }
}
