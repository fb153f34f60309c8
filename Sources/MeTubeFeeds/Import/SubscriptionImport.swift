import MeTubeCore

/// What a subscription file held: its format, the channels read from it and the entries left out.
public struct SubscriptionImport: Sendable, Equatable {
    /// The format the file was read as.
    public var format: SubscriptionFormat
    /// The channels with valid ids, each once, in the order the file lists them.
    public var channels: [Channel]
    /// The entries naming their channel by a handle, custom name, legacy user or video, each link
    /// once, in file order: they become channels once resolved over the network.
    public var links: [LinkEntry] = []
    /// The entries that did not become channels, each with its location and reason, in the order found.
    public var rejected: [RejectedEntry]
}
