import Synchronization

/// SQL texts that differ only in how many times a part repeats, each made once: a statement with
/// hundreds of placeholders is looked up in GRDB's statement cache by its text on every request,
/// and making that text each time was 3 % of the server's CPU time under load.
final class RepeatedSQL: Sendable {
    private let texts = Mutex<[Int: String]>([:])
    private let limit: Int
    private let make: @Sendable (Int) -> String

    /// Texts for 1 to `limit` repeats, `make` making the text of a count.
    init(upTo limit: Int, _ make: @escaping @Sendable (_ count: Int) -> String) {
        self.limit = limit
        self.make = make
    }

    /// The text for `count` repeats, which callers keep within 1 and the limit.
    subscript(count: Int) -> String {
        precondition((1...limit).contains(count), "RepeatedSQL asked for \(count) repeats of at most \(limit)")
        return texts.withLock { texts in
            if let text = texts[count] { return text }
            let text = make(count)
            texts[count] = text
            return text
        }
    }
}
