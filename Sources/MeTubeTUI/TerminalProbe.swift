import Foundation
import MeTubeCore

/// What the terminal says it draws, asked once at start before curses takes the terminal: the
/// kitty graphics query and DA1 (whose attribute 4 is sixel). Terminals answer in order, so the
/// DA1 answer closes the probe; without it by the deadline, nothing is known.
struct TerminalProbe: Equatable {
    /// The kitty graphics query (a 1×1 image that is checked, not stored), then DA1.
    static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c"
    /// The most bytes read while waiting: answers are a few dozen.
    static let byteLimit = 4096

    /// Whether the kitty graphics query was answered `OK`.
    var kittyGraphics = false
    /// Whether DA1 listed sixel graphics (attribute 4).
    var sixel = false
    /// Whether the DA1 answer came, which ends the answers.
    var answered = false

    /// The answers found in `bytes`; anything else in them (keys typed, garbage) is ignored.
    init(parsing bytes: [UInt8]) {
        var index = bytes.startIndex
        while let escape = bytes[index...].firstIndex(of: 0x1B) {
            index = escape + 1
            if let (payload, end) = Self.apc(in: bytes, after: escape) {
                kittyGraphics = kittyGraphics || payload == Array("Gi=31;OK".utf8)
                index = end
            } else if let (attributes, end) = Self.deviceAttributes(in: bytes, after: escape) {
                answered = true
                sixel = attributes.contains(4)
                index = end
            }
        }
    }

    /// The mode `auto` draws in with these answers: pixels only when the terminal said so in
    /// full, kitty before sixel.
    var mode: ThumbnailMode {
        guard answered else { return .symbols }
        return kittyGraphics ? .kitty : sixel ? .sixel : .symbols
    }

    /// `ESC _ payload ESC \` at `escape`: the payload and the index after the terminator.
    private static func apc(in bytes: [UInt8], after escape: Int) -> ([UInt8], Int)? {
        guard escape + 1 < bytes.endIndex, bytes[escape + 1] == UInt8(ascii: "_") else { return nil }
        var index = escape + 2
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0x1B { return bytes[index + 1] == UInt8(ascii: "\\") ? (Array(bytes[(escape + 2)..<index]), index + 2) : nil }
            index += 1
        }
        return nil
    }

    /// `ESC [ ? n ; n … c` at `escape`: the attributes and the index after the `c`.
    private static func deviceAttributes(in bytes: [UInt8], after escape: Int) -> ([Int], Int)? {
        guard escape + 2 < bytes.endIndex, bytes[escape + 1] == UInt8(ascii: "["), bytes[escape + 2] == UInt8(ascii: "?") else { return nil }
        var index = escape + 3
        while index < bytes.endIndex, index - escape < 64 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "c") {
                let text = String(decoding: bytes[(escape + 3)..<index], as: UTF8.self)
                return (text.split(separator: ";").compactMap { Int($0) }, index + 1)
            }
            guard byte == UInt8(ascii: ";") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            index += 1
        }
        return nil
    }

    /// Asks the terminal on standard input/output and reads its answers raw until DA1's arrives
    /// or `deadline` passes; everything read is consumed, so no answer leaks as keys. `nil` when
    /// the terminal cannot be put in raw mode.
    static func ask(within deadline: Duration) -> TerminalProbe? {
        var saved = termios()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        FileHandle.standardOutput.write(Data(query.utf8))
        let end = ContinuousClock.now + deadline
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytes.count < byteLimit {
            let left = end - ContinuousClock.now
            guard left > .zero else { break }
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&input, 1, Int32(left.wholeMilliseconds) + 1) > 0 else { break }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if TerminalProbe(parsing: bytes).answered { break }
        }
        return TerminalProbe(parsing: bytes)
    }
}
