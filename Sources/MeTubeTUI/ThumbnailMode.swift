/// How the details pane draws thumbnails (`[tui] thumbnails`).
public enum ThumbnailMode: String, CaseIterable, Sendable {
    /// Chooses for the terminal: symbols (the pixel modes are not drawn yet).
    case auto
    /// Unicode block symbols in the cells' colours, through ncurses: works in tmux and over ssh.
    case symbols
    /// The kitty graphics protocol; drawn as symbols for now.
    case kitty
    /// Sixel graphics; drawn as symbols for now.
    case sixel
    /// No thumbnails: nothing is fetched.
    case off
}
