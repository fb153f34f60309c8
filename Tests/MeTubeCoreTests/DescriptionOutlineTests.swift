import Foundation
import Testing
@testable import MeTubeCore

/// Chapters and links read from a description, bounded however hostile it is.
@Suite struct DescriptionOutlineTests {
    @Test func chaptersInTheUsualFormsAndLinksAreRead() {
        let outline = DescriptionOutline("""
            Intro text
            0:00 Intro
              12:34 - Results
            1:02:03 | Outro
            1:2:3 bad stamp
            0:75 bad seconds
            3:00
            10:00am is not a chapter
            See https://example.com/a, (https://example.org/b) and https://example.com/a again.
            """)
        #expect(outline.chapters == [.init(start: 0, title: "Intro"), .init(start: 754, title: "Results"), .init(start: 3_723, title: "Outro")])
        #expect(outline.links == ["https://example.com/a", "https://example.org/b"])
    }

    @Test func fiveThousandTimestampLinesAndHugeLinksStayBounded() {
        let stamps = ["0:00 " + String(repeating: "t", count: 1_000)] + (1..<5_000).map { "\($0 / 60):\(String(format: "%02d", $0 % 60)) title" }
        let links = (0..<5_000).map { "https://example.com/\($0)" } + ["https://example.com/" + String(repeating: "x", count: 10_000)]
        let outline = DescriptionOutline((stamps + links).joined(separator: "\n"))
        #expect(outline.chapters.count == DescriptionOutline.maxChapters)
        #expect(outline.chapters.first?.title.count == DescriptionOutline.maxTitleCharacters)
        #expect(outline.links.count <= DescriptionOutline.maxLinks)
        #expect(outline.links.allSatisfy { $0.utf8.count <= DescriptionOutline.maxLinkBytes })
    }

    @Test func aLinkEndsAtAControlOrBidiCharacter() {
        let outline = DescriptionOutline("https://example.com/a\u{1B}]52;c;ZXZpbA==\u{07} https://example.com/b\u{202E}lmth.exe")
        #expect(outline.links == ["https://example.com/a", "https://example.com/b"])
    }
}
