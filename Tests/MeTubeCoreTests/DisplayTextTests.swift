import Testing
@testable import MeTubeCore

/// The one sanitizer every display path uses.
@Suite struct DisplayTextTests {
    @Test func controlsAreRemovedAndLineBreaksBecomeSpaces() {
        #expect(DisplayText.line("a\u{1B}]0;t\u{07}b") == "a]0;tb")
        #expect(DisplayText.line("one\r\ntwo\tthree") == "one  two three")
        #expect(DisplayText.line("x\u{85}\u{9B}\u{7F}\u{0}y") == "xy")
        #expect(DisplayText.line("\u{202E}txt.exe\u{2066}\u{200F}") == "txt.exe")
        #expect(DisplayText.line("東京 🌃 👩‍👩‍👧 café") == "東京 🌃 👩‍👩‍👧 café")
    }

    @Test func everyC0C1AndBidiControlIsCaught() {
        let controls = Array(0x00...0x1F) + Array(0x7F...0x9F) + [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in controls {
            let text = "a" + String(Character(Unicode.Scalar(UInt32(value))!)) + "b"
            #expect(!DisplayText.line(text).unicodeScalars.contains(where: DisplayText.isControl), "U+\(String(value, radix: 16))")
        }
    }

    @Test func longTextIsCutWithAMarker() {
        let long = String(repeating: "x", count: 10_000_000)
        let line = DisplayText.line(long, limit: 80)
        #expect(line.count == 80 && line.hasSuffix("…"))
        #expect(DisplayText.capped(long).count == DisplayText.titleLimit)
    }
}
