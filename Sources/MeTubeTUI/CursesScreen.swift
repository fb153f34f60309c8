internal import CNcursesw
import Foundation
import MeTubeCore
import MeTubeThumbnails

/// What the terminal delivered while the loop waited.
enum TerminalInput: Equatable {
    /// A key press.
    case key(Key)
    /// The terminal changed size.
    case resize
    /// The terminal went away (its pty closed) without a SIGHUP reaching us.
    case hangup
}

/// The ncurses backend: sets the terminal up, reads keys with a timeout, and copies a
/// ``CellGrid`` to the screen, redrawing only rows that changed. Every call happens on the thread
/// that runs the event loop; ``close()`` restores the terminal.
final class CursesScreen {
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let colors: Bool
    private var shown: CellGrid?
    private var isOpen = true
    /// How long a waiting key read waits, in ms.
    private let timeoutMillis: Int32
    /// The terminal's answer to the start's probe, when it did not come in time.
    private var lateAnswer: LateProbeAnswer
    /// Keys read while looking for ``lateAnswer`` that were not part of it, to return next.
    private var readAhead: [TerminalInput] = []

    /// Starts curses on the process's terminal; `inputTimeout` is how long a key read waits.
    /// With `probeAnswerOwed`, the terminal's answer to ``TerminalProbe`` may still come, and is
    /// dropped rather than read as keys.
    init(useColors: Bool, inputTimeout: Duration, probeAnswerOwed: Bool = false) throws(TUIError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw .terminalUnavailable("standard input and output must be a terminal")
        }
        guard let screen = newterm(nil, cnc_stdout(), cnc_stdin()) else {
            throw .terminalUnavailable("unknown terminal type \"\(ProcessInfo.processInfo.environment["TERM"] ?? "")\"")
        }
        guard let window = cnc_stdscr() else {
            endwin()
            delscreen(screen)
            throw .terminalUnavailable("curses has no screen")
        }
        self.screen = screen
        self.window = window
        lateAnswer = LateProbeAnswer(isOwed: probeAnswerOwed)
        cbreak()
        noecho()
        nonl()
        keypad(window, true)
        curs_set(0)
        set_escdelay(25)
        let millis = Int32(inputTimeout.wholeMilliseconds)
        timeoutMillis = millis
        wtimeout(window, millis)
        colors = useColors && has_colors()
        if colors { Self.setUpColors() }
    }

    /// The colours a thumbnail can be drawn in here: 24-bit where the terminal has direct colour,
    /// else the 256-colour palette, else none (also under `NO_COLOR`).
    var pictureColors: PictureColors {
        guard colors else { return .none }
        let count = cnc_colors()
        return count >= 0x100_0000 ? .direct : count >= 256 ? .indexed256 : .none
    }

    /// The terminal's size now.
    var size: TerminalSize { TerminalSize(width: Int(cnc_cols()), height: Int(cnc_lines())) }

    /// Waits up to the input timeout for a key (or, with `waiting` false, only takes one already
    /// typed); `nil` when none came, ``TerminalInput/hangup`` when the terminal is gone (reads
    /// then fail at once, which would otherwise spin the loop).
    func read(waiting: Bool = true) -> TerminalInput? {
        if !readAhead.isEmpty { return readAhead.removeFirst() }
        let input = readCode(waitingMillis: waiting ? timeoutMillis : 0)
        guard case .character(let code) = input else { return input?.terminalInput }
        guard lateAnswer.isOwed, code == 0x1B else { return input?.terminalInput }
        return inputSkippingLateAnswer()
    }

    /// One read from curses: a character's code, or input that is no character.
    private enum ReadCode {
        case character(UInt32)
        case other(TerminalInput?)

        var terminalInput: TerminalInput? {
            switch self {
            case .character(let code): CursesScreen.characterKey(code).map(TerminalInput.key)
            case .other(let input): input
            }
        }
    }

    /// Reads one character or special key, waiting up to `waitingMillis`; `nil` when none came.
    private func readCode(waitingMillis: Int32) -> ReadCode? {
        if waitingMillis != timeoutMillis { wtimeout(window, waitingMillis) }
        defer { if waitingMillis != timeoutMillis { wtimeout(window, timeoutMillis) } }
        var character: wint_t = 0
        let result = wget_wch(window, &character)
        if result == ERR { return Self.terminalIsGone() ? .other(.hangup) : nil }
        if result == cnc_key_code_yes() { return .other(Self.specialKey(Int32(character))) }
        return .character(UInt32(character))
    }

    /// After an Escape while the probe's answer is owed: reads what was typed with it (an
    /// answer's characters come together) and drops an answer; anything else is returned as the
    /// keys it is, the first now and the rest from ``readAhead``.
    private func inputSkippingLateAnswer() -> TerminalInput? {
        var codes: [UInt32] = [0x1B]
        var after: TerminalInput?
        reading: while true {
            switch lateAnswer.judge(codes) {
            case .answer:
                return nil
            case .keys:
                break reading
            case .partial:
                // A lone Escape is not held back; once an answer has begun, its rest may take a read.
                switch readCode(waitingMillis: codes.count == 1 ? 0 : timeoutMillis) {
                case .character(let code): codes.append(code)
                case .other(let input):
                    after = input
                    break reading
                case nil: break reading
                }
            }
        }
        readAhead += codes.dropFirst().compactMap { Self.characterKey($0).map(TerminalInput.key) } + [after].compactMap { $0 }
        return .key(.escape)
    }

    /// Whether standard input, the terminal curses reads, has hung up or become invalid.
    private static func terminalIsGone() -> Bool {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, 0) >= 0 else { return false }
        return input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Makes the terminal show `grid`.
    func draw(_ grid: CellGrid) {
        if shown?.width != grid.width || shown?.height != grid.height {
            werase(window)
            shown = nil
        }
        for row in 0..<grid.height where shown.map({ $0.row(row) != grid.row(row) }) ?? true {
            drawRow(row, of: grid)
        }
        cnc_set_attributes(window, cnc_a_normal(), 0)
        wrefresh(window)
        shown = grid
    }

    /// Makes the next ``draw(_:)`` repaint `rows` (those on screen) in full, whatever curses
    /// thinks they show (a sixel picture drew over them).
    func repaint(rows: Range<Int>) {
        let onScreen = rows.clamped(to: 0..<size.height)
        guard !onScreen.isEmpty else { return }
        wredrawln(window, Int32(onScreen.lowerBound), Int32(onScreen.count))
    }

    /// Forgets what is on screen, so the next ``draw(_:)`` repaints everything (after a resize).
    func invalidate() {
        shown = nil
        clearok(window, true)
    }

    /// Restores the terminal; safe to call more than once.
    func close() {
        guard isOpen else { return }
        isOpen = false
        endwin()
        delscreen(screen)
    }

    private func drawRow(_ row: Int, of grid: CellGrid) {
        let cells = grid.row(row)
        var column = 0
        var runStart = cells.startIndex
        while runStart < cells.endIndex {
            let style = cells[runStart].style
            let inverse = cells[runStart].inverse
            let pictureColors = cells[runStart].colors
            var characters: [wchar_t] = []
            var runEnd = runStart
            var runColumns = 0
            while runEnd < cells.endIndex, cells[runEnd].style == style, cells[runEnd].inverse == inverse, cells[runEnd].colors == pictureColors {
                let cell = cells[runEnd]
                if cell.width > 0 {
                    for scalar in cell.character.unicodeScalars { characters.append(wchar_t(bitPattern: scalar.value)) }
                }
                runColumns += 1
                runEnd += 1
            }
            if let pictureColors, colors {
                cnc_set_attributes_pair(window, attributes(style, inverse: inverse), alloc_pair(pictureColors.foreground, pictureColors.background))
            } else {
                cnc_set_attributes(window, attributes(style, inverse: inverse), colors ? Int16(style.rawValue + 1) : 0)
            }
            characters.append(0)
            mvwaddnwstr(window, Int32(row), Int32(column), characters, Int32(characters.count - 1))
            column += runColumns
            runStart = runEnd
        }
    }

    private func attributes(_ style: CellStyle, inverse: Bool) -> Int32 {
        var value = cnc_a_normal()
        switch style {
        case .header: value |= cnc_a_bold() | (colors ? 0 : cnc_a_reverse())
        case .status: value |= colors ? 0 : cnc_a_reverse()
        case .dim: value |= cnc_a_dim()
        case .error, .conflict, .notice: value |= cnc_a_bold()
        default: break
        }
        if inverse { value ^= cnc_a_reverse() }
        return value
    }

    private static func setUpColors() {
        start_color()
        use_default_colors()
        let palette: [CellStyle: (Int32, Int32)] = [
            .normal: (-1, -1), .header: (Int32(COLOR_WHITE), Int32(COLOR_BLUE)), .dim: (-1, -1),
            .accent: (Int32(COLOR_CYAN), -1), .synced: (Int32(COLOR_GREEN), -1), .pending: (Int32(COLOR_YELLOW), -1),
            .conflict: (Int32(COLOR_RED), -1), .offline: (Int32(COLOR_MAGENTA), -1),
            .status: (Int32(COLOR_BLACK), Int32(COLOR_WHITE)), .error: (Int32(COLOR_RED), -1),
            .notice: (Int32(COLOR_BLACK), Int32(COLOR_YELLOW)),
        ]
        for style in CellStyle.allCases {
            let (foreground, background) = palette[style] ?? (-1, -1)
            init_pair(Int16(style.rawValue + 1), Int16(foreground), Int16(background))
        }
    }

    private static func specialKey(_ code: Int32) -> TerminalInput? {
        switch code {
        case KEY_RESIZE: .resize
        case KEY_UP: .key(.up)
        case KEY_DOWN: .key(.down)
        case KEY_LEFT: .key(.left)
        case KEY_RIGHT: .key(.right)
        case KEY_NPAGE: .key(.pageDown)
        case KEY_PPAGE: .key(.pageUp)
        case KEY_HOME: .key(.home)
        case KEY_END: .key(.end)
        case KEY_ENTER: .key(.enter)
        case KEY_BACKSPACE: .key(.backspace)
        case KEY_DC: .key(.delete)
        default: nil
        }
    }

    /// The key for a character code from the terminal.
    static func characterKey(_ code: UInt32) -> Key? {
        switch code {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(code + 96)!))
        default:
            guard code >= 32, let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }
}
