import Testing
@testable import MeTubeTUI

@Suite("Display width")
struct TextWidthTests {
    @Test("ASCII is one column, CJK and emoji two, combining marks none")
    func widths() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("東京") == 4)
        #expect(TextWidth.of("서울") == 4)
        #expect(TextWidth.of("🚀🎉") == 4)
        #expect(TextWidth.of("☕") == 2)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.of("Прогулка") == 8)
        #expect(TextWidth.of("❤️") == 2)
    }

    @Test("text is cut by display width, never inside a wide character")
    func truncation() {
        #expect(Formatting.truncated("東京の夜景", width: 6, unicode: true) == "東京…")
        #expect(TextWidth.of(Formatting.truncated("東京の夜景", width: 6, unicode: true)) == 5)
        #expect(Formatting.truncated("abcdef", width: 4, unicode: false) == "abc~")
        #expect(Formatting.truncated("abc", width: 3, unicode: true) == "abc")
    }

    @Test("durations, ages and counts")
    func formats() {
        #expect(Formatting.duration(754) == "12:34")
        #expect(Formatting.duration(3_723) == "1:02:03")
        #expect(Formatting.duration(nil) == "")
        #expect(Formatting.count(50_000) == "50,000")
        #expect(Formatting.count(999) == "999")
        let now = Fixture.now
        #expect(Formatting.age(of: now.addingTimeInterval(-30), now: now) == "now")
        #expect(Formatting.age(of: now.addingTimeInterval(-3 * 86_400), now: now) == "3d")
        #expect(Formatting.age(of: now.addingTimeInterval(-100 * 86_400), now: now) == "3mo")
    }
}
