/// How the details pane draws thumbnails (`[tui] thumbnails`).
///
/// Pictures are drawn with symbols in the terminal's own cells in every mode but `off`: that is
/// the one way that survives tmux, ssh, scrolling and redraws. Pixel pictures (kitty graphics,
/// sixel) are not drawn yet, so `auto` needs no terminal probe, and `kitty` and `sixel` say at
/// start that they fall back to symbols.
public enum ThumbnailMode: String, CaseIterable, Sendable {
    /// Chooses for the terminal: symbols, the mode that works everywhere.
    case auto
    /// Unicode block symbols in the cells' colours, through ncurses: works in tmux and over ssh.
    case symbols
    /// The kitty graphics protocol; drawn as symbols for now (see ``fallbackNotice``).
    case kitty
    /// Sixel graphics; drawn as symbols for now (see ``fallbackNotice``).
    case sixel
    /// No thumbnails: nothing is fetched.
    case off

    /// What the status line says at start when this mode is drawn otherwise than asked.
    public var fallbackNotice: String? {
        switch self {
        case .kitty, .sixel: "thumbnails = \"\(rawValue)\": pixel pictures are not drawn yet; drawing symbols"
        case .auto, .symbols, .off: nil
        }
    }
}
