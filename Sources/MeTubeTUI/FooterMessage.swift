/// A line of text for the user in the footer at the bottom of the screen, until the next key.
public struct FooterMessage: Sendable, Equatable {
    /// The text.
    public var text: String
    /// Whether it reports a failure.
    public var isError: Bool
}
