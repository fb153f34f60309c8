import MeTubeCore

/// Video ids that start with `-` (about 1 in 64 does) on the command line.
///
/// `metube mark -hAAAAAAAAA watched` would otherwise be read as the option `-h`. Before parsing,
/// the positional words of `mark` are moved behind a `--` when one of them is a video id that
/// starts with `-`, so they stay ids; the user may also write the `--` themselves.
enum IDArguments {
    /// The options of `mark` that take a value: the word after them is not positional.
    private static let optionsWithValue: Set<String> = ["--data-dir", "--config"]

    /// `arguments` (without the program name), with `mark`'s positional words placed after `--`
    /// when one of them is a video id starting with `-`.
    static func protectingLeadingDashes(_ arguments: [String]) -> [String] {
        guard arguments.first == "mark", !arguments.contains("--") else { return arguments }
        var options: [String] = []
        var positional: [String] = []
        var takesValue = false
        for word in arguments.dropFirst() {
            if takesValue {
                options.append(word)
                takesValue = false
            } else if word.hasPrefix("-"), !isDashID(word) {
                options.append(word)
                takesValue = optionsWithValue.contains(word)
            } else {
                positional.append(word)
            }
        }
        guard positional.contains(where: isDashID) else { return arguments }
        return ["mark"] + options + ["--"] + positional
    }

    private static func isDashID(_ word: String) -> Bool {
        word.hasPrefix("-") && VideoID.isValid(word)
    }
}
