import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// Hand-written broken, hostile and odd inputs: each gets a clear message and never costs the good entries.
@Suite struct ImportBadInputTests {
    private let luke = "UC2eYFnH61tmytImy1mTYvhA"
    private let linus = "UCXuqSBlHAE6Xw-yeJA0Tunw"
    private let kurzgesagt = "UCsXVk37bltHxD1rDPwtNM8Q"

    // MARK: Input that is no format at all

    @Test func emptyAndBlankInputAreUnrecognizedWithAPlainHint() {
        // Given an empty file and one of only blank lines
        // When they are read
        // Then each is an unrecognized format that says what it was
        #expect(ImportFixtures.error(reading: Data()) == .unrecognizedFormat(hint: "the input is empty"))
        #expect(ImportFixtures.error(reading: Data(" \n\r\n\t\n".utf8)) == .unrecognizedFormat(hint: "the input contains only whitespace"))
    }

    @Test func binaryGarbageIsUnrecognizedAndNamedByItsFirstBytes() {
        // Given bytes that are not text, and a zipped Takeout archive
        let garbage = Data([0x00, 0xFF, 0x13, 0x37, 0xC3, 0x28, 0x0A, 0x41, 0x42])
        let zip = Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00])
        // When they are read
        // Then the hints show the bytes, or tell the user to unpack the archive
        #expect(ImportFixtures.error(reading: garbage)
            == .unrecognizedFormat(hint: "binary data, not UTF-8 text (it starts with bytes 00 FF 13 37 C3 28 0A 41)"))
        #expect(ImportFixtures.error(reading: zip)?.description.contains("a ZIP archive; unpack it") == true)
        #expect(SubscriptionFormat.detect(data: garbage) == nil)
    }

    @Test func proseAndForeignXMLAreUnrecognizedNamingWhatWasSeen() {
        // Given a text without any id or URL, an Atom feed, and a CSV of the wrong width
        let prose = Data("hello world\nthis is not a subscription list\n".utf8)
        let atom = Data(#"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>"#.utf8)
        let narrowCSV = Data("name,url\nfoo,bar\n".utf8)
        // When they are read
        // Then each hint quotes what was there
        #expect(ImportFixtures.error(reading: prose) == .unrecognizedFormat(
            hint: "text whose first line is \"hello world\" and no line of which holds a channel id or URL"))
        #expect(ImportFixtures.error(reading: atom) == .unrecognizedFormat(
            hint: "an XML document whose root element is <feed>; subscriptions are read from OPML (<opml>)"))
        #expect(ImportFixtures.error(reading: narrowCSV, fileName: "subscriptions.csv") == .unrecognizedFormat(
            hint: "a CSV file whose first line \"name,url\" is neither a Takeout header nor a Takeout row (3 columns: channel id, channel URL, channel title)"))
    }

    // MARK: Takeout CSV

    @Test func truncatedTakeoutCSVKeepsTheCompleteRowsAndReportsTheCutOne() throws {
        // Given a Takeout file cut off in the middle of its fourth row
        let csv = """
            Channel Id,Channel Url,Channel Title
            \(luke),http://www.youtube.com/channel/\(luke),Luke Smith
            \(linus),http://www.youtube.com/channel/\(linus),"Linus, Tech Tips"
            UCsXVk37bl
            """
        // When it is read
        let result = try ImportFixtures.read(text: csv)
        // Then the complete rows are channels and the cut row is rejected by line
        #expect(result.format == .takeoutCSV)
        #expect(result.ids == [luke, linus])
        #expect(result.title(of: linus) == "Linus, Tech Tips")
        #expect(result.rejected == [RejectedEntry(
            location: "line 4", text: "UCsXVk37bl",
            reason: "\"UCsXVk37bl\" is not a valid channel id (UC followed by 22 letters, digits, - or _)")])
    }

    @Test func brokenCSVRowsAreRejectedOneByOneWithTheirLineNumbers() throws {
        // Given rows with an unclosed quote, text after a closing quote, an unquoted comma, and a repeat
        let csv = """
            Kanal-ID,Kanal-URL,Kanaltitel
            \(luke),http://www.youtube.com/channel/\(luke),"Luke
            \(linus),http://www.youtube.com/channel/\(linus),"Linus" Tech
            \(kurzgesagt),http://www.youtube.com/channel/\(kurzgesagt),Kurzgesagt, In a Nutshell
            \(linus),http://www.youtube.com/channel/\(linus),Linus Tech Tips
            \(linus),http://www.youtube.com/channel/\(linus),Linus again
            """
        // When it is read
        let result = try ImportFixtures.read(text: csv)
        // Then only the sound row is a channel, and each other row says what is wrong with it
        #expect(result.ids == [linus])
        #expect(result.rejected.map(\.location) == ["line 2", "line 3", "line 4", "line 6"])
        #expect(result.rejected.map(\.reason) == [
            "a quoted field is not closed",
            "text follows a closing quote without a comma",
            "4 fields where 3 are expected (an unquoted comma in the title?)",
            "duplicate of line 5",
        ])
    }

    @Test func byteOrderMarkCRLFAndAMissingFinalNewlineChangeNothing() throws {
        // Given a Takeout file as a Windows tool writes it: BOM, CRLF, no final newline
        let csv = "Channel ID,Channel URL,Channel title\r\n\(luke),http://www.youtube.com/channel/\(luke),Luke Smith\r\n"
            + "\(linus),http://www.youtube.com/channel/\(linus),Linus Tech Tips"
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(csv.utf8)
        // When it is read
        let result = try SubscriptionImporter.read(data, fileName: nil)
        // Then the titles carry no stray CR and the header is skipped
        #expect(result.format == .takeoutCSV)
        #expect(result.ids == [luke, linus])
        #expect(result.title(of: luke) == "Luke Smith")
        #expect(result.title(of: linus) == "Linus Tech Tips")
    }

    @Test func takeoutWithoutAHeaderRowKeepsItsFirstChannel() throws {
        // Given rows only, the header deleted by hand
        let csv = "\(luke),http://www.youtube.com/channel/\(luke),Luke Smith\n\(linus),http://www.youtube.com/channel/\(linus),LTT\n"
        // When it is read
        let result = try ImportFixtures.read(text: csv)
        // Then the first row is a channel too
        #expect(result.format == .takeoutCSV)
        #expect(result.ids == [luke, linus])
    }

    // MARK: JSON exports

    @Test func jsonOfTheWrongShapeIsUnrecognizedNamingItsKeys() {
        // Given JSON that is neither a NewPipe nor a FreeTube export
        let object = Data(#"{"channels": [], "version": 2}"#.utf8)
        let array = Data("[1, 2, 3]".utf8)
        let broken = Data("{ this is not json".utf8)
        // When it is read
        // Then the hints describe what the JSON holds
        #expect(ImportFixtures.error(reading: object) == .unrecognizedFormat(hint: """
            JSON: an object with the keys "channels", "version"; \
            expected NewPipe's export (an object with "subscriptions") or FreeTube's profiles.db
            """))
        #expect(ImportFixtures.error(reading: array)?.description.contains("JSON: an array;") == true)
        #expect(ImportFixtures.error(reading: broken) == .unrecognizedFormat(hint: "text that starts like JSON but is not valid JSON"))
    }

    @Test func newPipeExportWithAWrongSubscriptionsMemberIsMalformed() {
        // Given NewPipe exports whose `subscriptions` is an object, or missing
        let wrongType = Data(#"{"app_version": "0.27.0", "subscriptions": {"url": "x"}}"#.utf8)
        let missing = Data(#"{"app_version": "0.27.0", "_subscriptions": []}"#.utf8)
        // When they are read
        // Then the error names the field
        #expect(ImportFixtures.error(reading: wrongType) == .malformedInput(
            format: "NewPipe JSON", location: "subscriptions", reason: "an object where an array is expected"))
        #expect(ImportFixtures.error(reading: missing, fileName: "newpipe_subscriptions_202401011200.json")?
            .description.contains("JSON: an object with the keys \"_subscriptions\", \"app_version\"") == true)
    }

    @Test func truncatedNewPipeExportIsMalformedAtTheEndOfFile() {
        // Given a NewPipe export cut off inside its array, and one with a stray comma on line 3
        let truncated = Data("{\"subscriptions\": [\n  {\"service_id\": 0, \"url\": \"https://www.youtube.com/channel/\(luke)\"".utf8)
        let strayComma = Data("{\n  \"subscriptions\": [\n    ,{\"url\": \"x\"}\n  ]\n}".utf8)
        // When they are read
        // Then the error says where the JSON breaks
        #expect(ImportFixtures.error(reading: truncated) == .malformedInput(
            format: "NewPipe JSON", location: "end of file", reason: "not valid JSON: Unexpected end of file during JSON parse"))
        let error = ImportFixtures.error(reading: strayComma)
        guard case let .malformedInput(format, location, reason)? = error else {
            Issue.record("expected malformedInput, got \(String(describing: error))")
            return
        }
        #expect(format == "NewPipe JSON")
        #expect(location == "line 3, column 5")
        #expect(reason.hasPrefix("not valid JSON: "))
    }

    @Test func newPipeItemsOfTheWrongShapeAreRejectedByPathAndTheRestRead() throws {
        // Given a NewPipe export whose items are a number, nameless, SoundCloud, a /user/ URL and one good channel
        let json = """
            {"subscriptions": [
              42,
              {"service_id": 0, "name": "no url"},
              {"service_id": 1, "url": "https://soundcloud.com/someone", "name": "SC"},
              {"service_id": 0, "url": "https://www.youtube.com/user/someone", "name": "Old"},
              {"url": "https://www.youtube.com/channel/\(luke)", "name": "Luke Smith"}
            ], "app_version_int": 990}
            """
        // When it is read
        let result = try ImportFixtures.read(text: json)
        // Then the good item is a channel and each other one but the /user/ URL is rejected at its path
        #expect(result.ids == [luke])
        #expect(result.rejected == [
            RejectedEntry(location: "subscriptions[0]", text: "42", reason: "a number where an object is expected"),
            RejectedEntry(location: "subscriptions[1].url", text: #"{"name":"no url","service_id":0}"#, reason: "no channel URL"),
            RejectedEntry(location: "subscriptions[2].service_id", text: "https://soundcloud.com/someone",
                          reason: "service 1 (SoundCloud), not YouTube"),
        ])
        // And the /user/ URL waits for the network, with its title
        #expect(result.links == [LinkEntry(location: "subscriptions[3].url", text: "https://www.youtube.com/user/someone", link: .user("someone"), title: "Old")])
    }

    @Test func freeTubeTornLastLineAndTombstonesAreHandledLikeNeDB() throws {
        // Given two profiles (no allChannels), a tombstone deleting the second, a later third, and a torn last line
        let db = """
            {"_id":"a1","name":"Tech","subscriptions":[{"id":"\(luke)","name":"Luke Smith","thumbnail":""}]}
            {"_id":"b2","name":"Gone","subscriptions":[{"id":"\(linus)","name":"LTT"}]}
            {"$$deleted":true,"_id":"b2"}
            {"_id":"c3","name":"Science","subscriptions":[{"id":"\(kurzgesagt)","name":"Kurzgesagt"},{"name":"no id"},{"id":"\(luke)"}]}
            {"_id":"c3","name":"Science","subscriptions":[{"id":"UCsXVk37
            """
        // When it is read
        let result = try ImportFixtures.read(text: db)
        // Then the live profiles' channels come out in profile order and each problem has its line
        #expect(result.format == .freeTube)
        #expect(result.ids == [luke, kurzgesagt])
        #expect(result.channels[0].thumbnailURL == nil)
        #expect(result.rejected.map(\.location) == ["line 5", "line 4, subscriptions[1].id", "line 4, subscriptions[2].id"])
        #expect(result.rejected[0].reason.hasPrefix("not a JSON document: "))
        #expect(result.rejected[1].reason == "no channel id")
        #expect(result.rejected[2].reason == "duplicate of line 1, subscriptions[0].id")
    }

    @Test func neDBFileWithoutProfilesIsMalformed() {
        // Given FreeTube's history.db given in place of profiles.db
        let history = Data(#"{"videoId":"dQw4w9WgXcQ","title":"x","_id":"h1"}"#.utf8 + [0x0A])
        // When it is read
        // Then the error says which file was expected
        #expect(ImportFixtures.error(reading: history, fileName: "history.db") == .malformedInput(
            format: "FreeTube profiles", location: "whole file",
            reason: "no document with a \"subscriptions\" array; expected FreeTube's profiles.db"))
    }

    // MARK: OPML

    @Test func opmlBrokenBeforeItsFirstFeedIsMalformedWithLineAndColumn() {
        // Given OPML whose first outline has a bare &
        let opml = "<opml version=\"1.1\">\n<body><outline text=\"Rhett & Link\" xmlUrl=\"https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)\" /></body></opml>"
        // When it is read
        let error = ImportFixtures.error(reading: Data(opml.utf8))
        // Then the error points at the & and says how to write it
        guard case let .malformedInput(format, location, reason)? = error else {
            Issue.record("expected malformedInput, got \(String(describing: error))")
            return
        }
        #expect(format == "OPML")
        #expect(location.hasPrefix("line 2, column "))
        #expect(reason == "a bare & or < that should be written &amp; or &lt;")
    }

    @Test func opmlBrokenMidwayKeepsTheFeedsBeforeTheBreak() throws {
        // Given OPML whose second outline lacks its closing > and whose third is fine
        let opml = """
            <opml version="1.1">
              <body>
                <outline text="Luke" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)" />
                <outline text="Linus" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=\(linus)" </outline>
                <outline text="Kurz" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=\(kurzgesagt)" />
              </body>
            </opml>
            """
        // When it is read
        let result = try ImportFixtures.read(text: opml)
        // Then the feed before the break is kept and the break is reported with its place
        #expect(result.ids == [luke])
        let rejected = try #require(result.rejected.only)
        #expect(rejected.location.hasPrefix("line 4, column "))
        #expect(rejected.reason.hasPrefix("broken XML: "))
        #expect(rejected.reason.hasSuffix("; nothing after this point was read"))
    }

    @Test func truncatedOPMLSaysTheDocumentEndsEarly() throws {
        // Given the raw one-line layout, with non-ASCII titles, cut off inside the third outline
        let opml = "<opml version=\"1.1\">\n<body><outline text=\"YouTube Subscriptions\" title=\"YouTube Subscriptions\">"
            + "<outline text=\"Luke\" title=\"Luke\" type=\"rss\" xmlUrl=\"https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)\" />"
            + "<outline text=\"Линус 日本\" title=\"Линус 日本\" type=\"rss\" xmlUrl=\"https://www.youtube.com/feeds/videos.xml?channel_id=\(linus)\" />"
            + "<outline text=\"Kurz\" title=\"Ku"
        // When it is read
        let result = try ImportFixtures.read(text: opml)
        // Then the two complete feeds are kept and the cut is called a truncation
        #expect(result.ids == [luke, linus])
        #expect(result.rejected.only?.reason
            == "broken XML: the document ends before it is complete (a truncated file?); nothing after this point was read")
    }

    @Test func opmlThatWouldCrashTheXMLParserIsMalformedWithItsPlace() {
        // Given OPML files with an instruction without data, and document types declaring attributes or notations
        let outline = "<outline text=\"Luke\" xmlUrl=\"https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)\"/>"
        let files = [
            ("<opml version=\"1.0\"><body>\(outline)<?x?></body></opml>", "line 1, column \(27 + outline.utf8.count)", "a processing instruction without data is not accepted"),
            ("\n<?xml version=\"1.0\"?>\n<!DOCTYPE opml [<!ATTLIST outline a CDATA #IMPLIED>]>\n<opml version=\"1.0\"><body>\(outline)</body></opml>", "line 3, column 1",
             "a document type with declarations inside ([…]) is not accepted"),
            ("<!DOCTYPE opml SYSTEM \"a>b\" [<!NOTATION n SYSTEM \"x\">]><opml version=\"1.0\"><body>\(outline)</body></opml>", "line 1, column 1",
             "a document type with declarations inside ([…]) is not accepted"),
        ]
        for (opml, expectedLocation, expectedReason) in files {
            // When each is read
            let error = ImportFixtures.error(reading: Data(opml.utf8))
            // Then it is malformed at the place of what was refused, and the process is still alive to say so
            #expect(error == .malformedInput(format: "OPML", location: expectedLocation, reason: expectedReason), "\(opml)")
        }
    }

    @Test func opmlWithAPlainDocumentTypeIsRead() throws {
        // Given OPML that names its document type without declarations inside
        let opml = "<?xml version=\"1.0\"?>\n<!DOCTYPE opml>\n<opml version=\"1.0\"><body><outline text=\"Luke\" xmlUrl=\"https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)\"/></body></opml>"
        // When it is read
        let result = try ImportFixtures.read(text: opml)
        // Then its feed is imported
        #expect(result.ids == [luke])
    }

    // MARK: Lists of ids and URLs

    @Test func plainListReportsEveryUnusableLineWithItsNumberAndReason() throws {
        // Given a hand-written list with comments, a short id, a handle, a legacy user feed and repeats
        let list = """
            # my channels
            \(luke)
            UCshort
            https://www.youtube.com/channel/\(linus)   # Linus
            https://www.youtube.com/@veritasium

            https://www.youtube.com/feeds/videos.xml?user=google
            youtube.com/channel/\(kurzgesagt)
            https://www.youtube.com/feeds/videos.xml?playlist_id=UULF2eYFnH61tmytImy1mTYvhA
            https://www.youtube.com/feeds/videos.xml?playlist_id=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf
            """
        // When it is read
        let result = try ImportFixtures.read(text: list)
        // Then the good lines are channels in order and each bad one is rejected with its line
        #expect(result.format == .plainList)
        #expect(result.ids == [luke, linus, kurzgesagt])
        #expect(result.channels.allSatisfy { $0.title == nil })
        #expect(result.rejected.map(\.location) == ["line 3", "line 9", "line 10"])
        #expect(result.rejected.map(\.reason) == [
            "\"UCshort\" is not a valid channel id (UC followed by 22 letters, digits, - or _)",
            "duplicate of line 2",
            "a playlist, not a channel",
        ])
        // And the handle and the legacy user feed wait for the network, with their lines
        #expect(result.links.map(\.location) == ["line 5", "line 7"])
        #expect(result.links.map(\.link) == [.handle("veritasium"), .user("google")])
    }

    @Test func newsboatLinesWithTagsTitlesAndCommentsAreTokenizedLikeNewsboat() throws {
        // Given newsboat lines with TABs, escaped quotes, an unquoted ~title, a hidden tag and an inline comment
        let urls = """
            https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)\t"yt"\t"~Luke \\"LS\\" Smith"
            https://youtube.com/feeds/videos.xml?channel_id=\(linus) ~LTT "!" #linus tech tips
            #https://www.youtube.com/feeds/videos.xml?channel_id=\(kurzgesagt) "~commented out"
            https://www.youtube.com/feeds/videos.xml?user=NASAtelevision "~NASA"
            https://example.org/rss.xml "~Blog"
            """
        // When it is read
        let result = try ImportFixtures.read(text: urls)
        // Then titles come from the ~ tags and the foreign feed is rejected with its reason
        #expect(result.format == .newsboatURLs)
        #expect(result.ids == [luke, linus])
        #expect(result.title(of: luke) == #"Luke "LS" Smith"#)
        #expect(result.title(of: linus) == "LTT")
        #expect(result.rejected == [
            RejectedEntry(location: "line 5", text: "https://example.org/rss.xml", reason: "not a YouTube URL (host example.org)"),
        ])
        // And the legacy user feed waits for the network, keeping its title
        #expect(result.links.map(\.link) == [.user("NASAtelevision")])
        #expect(result.links.map(\.title) == ["NASA"])
    }

    @Test func utf16ListWithByteOrderMarkIsRead() throws {
        // Given a plain list saved as UTF-16 little-endian with a BOM
        let data = Data([0xFF, 0xFE]) + "\(luke)\r\n\(linus)\r\n".data(using: .utf16LittleEndian)!
        // When it is read
        let result = try SubscriptionImporter.read(data, fileName: "channels.txt")
        // Then both ids are channels
        #expect(result.ids == [luke, linus])
    }

    @Test func overlongRejectedTextIsShortened() throws {
        // Given a line of 1,000 characters that names no channel
        let line = "https://example.org/" + String(repeating: "x", count: 980)
        // When it is read
        let result = try ImportFixtures.read(text: line)
        // Then the rejected text is cut to 200 characters ending in an ellipsis
        let text = try #require(result.rejected.only?.text)
        #expect(text.count == 200)
        #expect(text.hasSuffix("…"))
    }
}
