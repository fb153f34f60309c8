/// The valid name closest to a misspelt one, for "did you mean" hints.
public enum NearestName {
    /// The name in `candidates` with the fewest edits from `name`, when it is close enough to be a
    /// likely misspelling (at most a third of its length, at least 2 edits allowed).
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, target.count / 3) else { return nil }
        return best.name
    }

    /// "; did you mean X?" when a close name exists, else the list of valid names.
    public static func hint(for name: String, among candidates: [String]) -> String {
        if let nearest = suggestion(for: name, among: candidates) { return "did you mean \(nearest)?" }
        return "valid: " + candidates.joined(separator: ", ")
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
