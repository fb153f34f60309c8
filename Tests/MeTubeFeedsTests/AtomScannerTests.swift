import Foundation
@testable import MeTubeCore
@testable import MeTubeFeeds
import Testing

/// The fast reader of Atom documents against `XMLParser`: whatever it reads, `XMLParser` reads
/// the same way; what it does not read, it leaves to `XMLParser`.
@Suite struct AtomScannerTests {
    private static let namespaces = #"xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom""#

    /// A YouTube-shaped channel feed with `body` as its first entry's extra content.
    private static func feed(declaration: String = #"<?xml version="1.0" encoding="UTF-8"?>"#, entry: String = "", tail: String = "") -> Data {
        Data("""
            \(declaration)
            <feed \(namespaces)>
             <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=UCLA_DiR1FfKNvjuUpBHmylQ"/>
             <yt:channelId>LA_DiR1FfKNvjuUpBHmylQ</yt:channelId>
             <title>NASA &amp; friends</title>
             <author><name>NASA</name><uri>https://www.youtube.com/channel/UCLA_DiR1FfKNvjuUpBHmylQ</uri></author>
             <entry>
              <id>yt:video:I_GUQdY01b0</id>
              <yt:videoId>I_GUQdY01b0</yt:videoId>
              <yt:channelId>UCLA_DiR1FfKNvjuUpBHmylQ</yt:channelId>
              <title>A launch</title>
              <link rel="alternate" href="https://www.youtube.com/watch?v=I_GUQdY01b0"/>
              <published>2026-01-02T03:04:05+00:00</published>
              <updated>2026-01-03T03:04:05+00:00</updated>
              <media:group>
               <media:title>A launch</media:title>
               <media:thumbnail url="https://i4.ytimg.com/vi/I_GUQdY01b0/hqdefault.jpg" width="480" height="360"/>
               <media:description>Liftoff.</media:description>
               <media:community><media:statistics views="66195"/></media:community>
              </media:group>\(entry)
             </entry>\(tail)
            </feed>
            """.utf8)
    }

    /// Both readers on `data`: the scanner's feed (nil when it leaves the document), and
    /// `XMLParser`'s feed or error.
    private func bothReads(_ data: Data) -> (fast: AtomFeed?, full: Result<AtomFeed, MeTubeCoreError>) {
        let document = AtomFeedParser.document(in: data)
        return (AtomScanner.feed(document), Result { () throws(MeTubeCoreError) in try AtomFeedParser.parseWithXMLParser(Data(document)) })
    }

    private func fixtures() throws -> [Data] {
        try ["youtube_atom", "youtube_websub"].flatMap { folder in
            let url = try #require(Bundle.module.url(forResource: "Fixtures/\(folder)", withExtension: nil))
            return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "xml" }.sorted { $0.path < $1.path }.map { try Data(contentsOf: $0) }
        }
    }

    @Test func everyRealFeedIsReadByTheScannerAsXMLParserReadsIt() throws {
        for (index, data) in try fixtures().enumerated() {
            let (fast, full) = bothReads(data)
            #expect(fast != nil, "fixture \(index) left to XMLParser")
            #expect(fast == (try? full.get()), "fixture \(index)")
        }
    }

    @Test(arguments: [
        // References in text and attributes, CDATA, comments and instructions inside text
        #"<title>&lt;b&gt; &#x1F680;&#128640; &quot;q&apos; a&gt;b <![CDATA[<raw> & ]]]]>x<!-- note --> y<?pi data?>z</title>"#,
        #"<link rel='alternate' href="https://www.youtube.com/watch?v=abcdefghijk&amp;t=1&#38;x=&quot;'>"/>"#,
        // White space only, a character reference to a carriage return, C1 and line separator characters
        "<media:group><media:description>   \n  </media:description></media:group>",
        "<media:group><media:description>a&#13;b\u{85}c\u{2028}d é 東京 🚀</media:description></media:group>",
        // Prefixes declared again lower down, the default namespace undeclared, unknown elements
        #"<extra xmlns:y="http://www.youtube.com/xml/schemas/2015"><y:videoId>x</y:videoId></extra><y:videoId xmlns:y="http://www.youtube.com/xml/schemas/2015">zzzzzzzzzzz</y:videoId>"#,
        #"<other xmlns=""><title>not atom</title><link rel="self" href="x"/></other>"#,
        #"<deep><deeper a="1" b = '2' ><deepest/></deeper ></deep >"#,
        "<title/>",
    ])
    func documentsInTheSubsetAreReadAsXMLParserReadsThem(entry: String) throws {
        for data in [Self.feed(entry: entry), Self.feed(declaration: "", entry: entry), Self.feed(declaration: "<?xml version='1.0' standalone='yes'?>\n<!-- before -->", entry: entry, tail: "<!-- after -->")] {
            let (fast, full) = bothReads(data)
            #expect(fast != nil, "left to XMLParser: \(entry)")
            #expect(fast == (try? full.get()), "\(entry)")
        }
    }

    @Test(arguments: [
        "<!DOCTYPE feed>\n", #"<?xml version="1.0" encoding="ISO-8859-1"?>"#, #"<?xml version="1.1"?>"#,
    ])
    func declarationsOutsideTheSubsetAreLeftToXMLParser(declaration: String) {
        #expect(bothReads(Self.feed(declaration: declaration)).fast == nil)
    }

    @Test(arguments: [
        "<title>a\rb</title>", "<title>&nbsp;</title>", "<title>&#0;</title>", "<title>&#xD800;</title>", "<title>&#X41;</title>", "<title>a & b</title>",
        "<x:foo/>", "<title>a</titel>", #"<link rel="a" rel="b"/>"#, #"<link xml:lang="en"/>"#, #"<g:x xmlns:g="http://example.com/g"/>"#,
        "<link href=\"a\tb\"/>", "<title>a]]>b</title>", "<!-- a -- b -->", "<tité/>", "<a:b:c/>", #"<link rel="a"href="b"/>"#,
        "<?xml version=\"1.0\"?>", "<title>\u{0}</title>", "<title>\u{FFFE}</title>", String(repeating: "<d>", count: 300) + String(repeating: "</d>", count: 300),
        String(repeating: #"<d xmlns:y="http://search.yahoo.com/mrss/">"#, count: 70) + String(repeating: "</d>", count: 70),
    ])
    func entriesOutsideTheSubsetAreLeftToXMLParser(entry: String) {
        #expect(bothReads(Self.feed(entry: entry)).fast == nil, "\(entry)")
    }

    @Test func documentsThatAreNotAtomFeedsOrAreCutShortAreLeftToXMLParser() {
        let whole = Self.feed()
        for data in [Data(#"<rss version="2.0"><channel/></rss>"#.utf8), Data(), whole.prefix(whole.count - 3), whole + Data("<feed/>".utf8), whole + Data("text".utf8)] {
            #expect(bothReads(data).fast == nil)
        }
    }

    @Test func whatWouldCrashXMLParserIsRefusedWithAReason() throws {
        // Given documents XMLParser crashes on (a processing instruction without data, a
        // document type declaring attributes, UTF-8 cut in the middle of a character), which the
        // scanner leaves to it
        let instruction = Self.feed(entry: "<title>a\rb</title><?p?>")
        let documentType = Self.feed(declaration: "<!DOCTYPE feed [<!ATTLIST feed a CDATA #IMPLIED>]>")
        var cut = Array(Self.feed(entry: "<title>a\rb é</title>"))
        cut.remove(at: try #require(cut.firstIndex(of: 0xC3)) + 1)
        for data in [instruction, documentType, Data(cut)] { #expect(AtomScanner.feed(AtomFeedParser.document(in: data)) == nil) }
        // When they are parsed, then they are refused, naming the place
        for (data, reason, line) in [(instruction, "a processing instruction without data is not accepted", 20),
                                     (documentType, "a document type declaration is not accepted", 1), (Data(cut), "the document is not valid UTF-8", 20)] {
            let error = #expect(throws: MeTubeCoreError.self) { try AtomFeedParser.parse(data) }
            guard case .malformedInput(_, let location, let given) = error else { continue }
            #expect(given == reason && location.hasPrefix("line \(line), column "), "\(location)")
        }
        // And in the subset the scanner reads such an instruction as XMLParser would read one with data
        let readable = try AtomFeedParser.parse(Self.feed(entry: "<title>x<?p?>y</title>"))
        #expect(readable.entries.first?.title == "xy")
    }

    @Test func randomlyDamagedDocumentsAreReadAsXMLParserReadsThemOrLeftToIt() throws {
        // Given small feeds in the subset and real ones, damaged at random: bytes inserted,
        // removed and repeated, markup of every kind among them
        let pieces = ["<", ">", "/", "&", ";", "\"", "'", "=", ":", "!", "?", "-", "]", "[", " ", "\n", "\r", "\t", "a", "#", "x", "é",
                      "&amp;", "&#x41;", "&#10;", "<!--c-->", "<![CDATA[z]]>", "</entry>", "<entry>", "<title>", "</title>", "<media:title>",
                      #" xmlns="http://www.w3.org/2005/Atom""#, #" xmlns:yt="http://www.youtube.com/xml/schemas/2015""#, " a='1'", "\u{0}", "\u{FFFE}", "<?p?>", "<?xml-model x?>", #" xmlns:y="http://search.yahoo.com/mrss/""#, #" xmlns="""#, "&#xFFFF;", "&#1114111;",
                      "<a/>", "<yt:x/>", "<y:x/>", "\u{85}", "\u{2028}"]
        let bases = [Self.feed(), Self.feed(entry: "<title>&lt;x&gt;</title><!-- c --><other xmlns=\"\"/>"), Self.feed(declaration: "")] + (try fixtures().prefix(3))
        var random = SplitMix64(seed: 0x6174_6F6D)
        var read = 0
        let rounds = 1_500
        for round in 0..<rounds {
            var bytes = Array(bases[Int(random.next() % UInt64(bases.count))])
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                switch random.next() % 3 {
                case 0: bytes.insert(contentsOf: Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8), at: at)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 8)))
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + Int(random.next() % 40))], at: Int(random.next() % UInt64(bytes.count + 1)))
                }
            }
            // When both readers read it (XMLParser only what does not crash it)
            guard XMLParserGuard.unsafeSpot(in: AtomFeedParser.document(in: Data(bytes)), documentTypes: .refused) == nil else {
                #expect(AtomScanner.feed(AtomFeedParser.document(in: Data(bytes))) != nil || (try? AtomFeedParser.parse(Data(bytes))) == nil)
                continue
            }
            let (fast, full) = bothReads(Data(bytes))
            // Then a feed the scanner reads is exactly the one XMLParser reads
            guard let fast else { continue }
            read += 1
            switch full {
            case .success(let feed): #expect(feed == fast, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
            case .failure(let error): Issue.record("round \(round): the scanner read what XMLParser refuses (\(error)): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // And the damage left enough documents readable for the comparison to mean something
        #expect(read > rounds / 10, "only \(read) of \(rounds) damaged documents were read by the scanner")
    }
}
