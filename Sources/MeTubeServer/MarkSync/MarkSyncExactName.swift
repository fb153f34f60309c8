/// A record or zone name compared by its UTF-8 bytes, as SQLite and PostgreSQL compare names.
///
/// Swift's `String` equality is canonical equivalence: "é" precomposed (U+00E9) equals "e" and a
/// combining acute (U+0065 U+0301). Keyed by `String`, two records the stores keep apart would be
/// one key, and a lookup of one could answer with the other; keyed by this, they stay two.
public struct MarkSyncExactName: Sendable, Hashable {
    /// The name.
    public let name: String

    /// The name `name`, compared byte for byte.
    public init(_ name: String) {
        self.name = name
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name.utf8.count == rhs.name.utf8.count && lhs.name.utf8.elementsEqual(rhs.name.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var bytes = name
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
