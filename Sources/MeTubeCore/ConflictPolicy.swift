/// How a conflict between this device's mark and another device's is settled.
public enum ConflictPolicy: String, Codable, Sendable, CaseIterable {
    /// Keep both and let the user choose (the default).
    case ask
    /// The mark with the newer hybrid logical clock reading wins.
    case newest
    /// The server's value wins.
    case server
    /// This device's value wins.
    case local
}
