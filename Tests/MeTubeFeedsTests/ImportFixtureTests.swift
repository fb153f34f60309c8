import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// Reading the real exports saved under `Fixtures/import/` (provenance in /work/shared/fixtures/SOURCES.md).
@Suite struct ImportFixtureTests {
    // MARK: Google Takeout CSV

    @Test(arguments: [
        ("takeout_csv/takeout_subscriptions_2021_ishika-kumari.csv", 151,
         "UC-5QQuejPrfzryw1NDsS6zg", "structurefree", "UCzWQYUVCpZqtN93H8RR44Qw", "Seeker"),
        ("takeout_csv/takeout_subscriptions_2021_rennycode.csv", 110,
         "UC-lHJZR3Gqxm24_Vd_AJ5Yw", "PewDiePie", "UCzFDIrKdfyRvDAGRMd_EWIw", "FlavaDM"),
        ("takeout_csv/takeout_subscriptions_2025_ishannilawar_TRIMMED.csv", 138,
         "UC--MxpGXJ3LVD8KvlNzRlcA", "HowToBBQRight", "UCzV4wnGQQBYr5JafPLHWhYQ", "👿18K_EDITXZ🥶"),
        ("takeout_csv/takeout_subscriptions_2025_v1-v0_TRIMMED.csv", 159,
         "UC-0unh5x9WSd6aj0OGxrgaA", "寰亞音樂 Media Asia Music Official Channel", "UCzTkEBNDoGx-bKxyZwE0w7Q", "ローム株式会社 ROHM Co., Ltd."),
        ("takeout_csv/takeout_subscriptions_deniz1433_unsorted_no_final_newline.csv", 8,
         "UCUHlrXfYFeoVfXLCRourKsw", "red person ", "UCIcGc8tDHYZ3vY3NcS8JXaQ", "b2studios"),
        ("takeout_csv/takeout_subscriptions_german_locale_invidious_spec.csv", 13,
         "UC0hHW5Y08ggq-9kbrGgWj0A", "Matias Marolla", "UCZ5XnGb-3t7jCkXdawN2tkA", "Discord"),
    ])
    func takeoutExportsReadEveryRowWithItsTitle(
        path: String, count: Int, firstID: String, firstTitle: String, lastID: String, lastTitle: String
    ) throws {
        // Given a Takeout subscriptions.csv of any year or locale
        // When it is read
        let result = try ImportFixtures.read(path)
        // Then every data row is a channel, in file order, titles verbatim, nothing rejected
        #expect(result.format == .takeoutCSV)
        #expect(result.channels.count == count)
        #expect(result.rejected.isEmpty)
        #expect(result.channels.first?.id == firstID)
        #expect(result.channels.first?.title == firstTitle)
        #expect(result.channels.last?.id == lastID)
        #expect(result.channels.last?.title == lastTitle)
    }

    @Test func takeoutQuotedFieldsKeepCommasQuotesAndTrailingSpaces() throws {
        // Given the 2025 exports, whose titles need RFC 4180 quoting
        // When they are read
        let ishannilawar = try ImportFixtures.read("takeout_csv/takeout_subscriptions_2025_ishannilawar_TRIMMED.csv")
        let v1v0 = try ImportFixtures.read("takeout_csv/takeout_subscriptions_2025_v1-v0_TRIMMED.csv")
        // Then doubled quotes, commas and trailing spaces inside quotes survive, as do unquoted trailing spaces
        #expect(ishannilawar.title(of: "UC6uFoOEo8WIo_5dcidOtCDA") == #"ALI "DUNKIN" ART"#)
        #expect(ishannilawar.title(of: "UCEwYcyiJHW2GqPJW7cdnjJg") == "RootSaid - Robotics, Electronics & Technology ")
        #expect(v1v0.title(of: "UCND4vKhJssAtK8p1Blfj14Q") == "Anaconda, Inc.")
        #expect(v1v0.title(of: "UCyCZ0qec223YCgjwU83LubA") == "各位,我係王俊彥 CWR NewsPost UK")
        #expect(v1v0.title(of: "UC2m77KGMIKZCD0Kw35-4shQ") == "Yuval Noah Harari ")
    }

    @Test func takeoutKeepsRightToLeftAndAccentedTitles() throws {
        // Given exports with Hebrew and Turkish titles
        // When they are read
        let rennycode = try ImportFixtures.read("takeout_csv/takeout_subscriptions_2021_rennycode.csv")
        let deniz = try ImportFixtures.read("takeout_csv/takeout_subscriptions_deniz1433_unsorted_no_final_newline.csv")
        // Then the titles are unchanged
        #expect(rennycode.title(of: "UCqlWTnzNUnKUCwmhnlLDaAg") == "הישראליות")
        #expect(deniz.title(of: "UC7J2228zEgH1qd7MboM4XGQ") == "Müslüm Gürses")
    }

    // MARK: OPML

    @Test func youTubeOPMLFrom2015RejectsItsNonStandardIDAndKeepsTheRest() throws {
        // Given the raw one-line subscription-manager export with one `SW8udTMcfcKX0` id
        // When it is read
        let result = try ImportFixtures.read("youtube_opml/subscription_manager_2015_nanor.xml")
        // Then 144 of 145 feeds are channels and the odd one is rejected with its location and reason
        #expect(result.format == .opml)
        #expect(result.channels.count == 144)
        #expect(result.channels.first?.id == "UC7_YxT-KID8kRbqZo7MyscQ")
        #expect(result.channels.first?.title == "Markiplier")
        #expect(result.channels.last?.id == "UCKG7_ZBGyD9LQtd_E0YYtug")
        #expect(result.title(of: "UCbochVIwBCzJb9I2lLGXGjQ") == "Rhett & Link")
        let rejected = try #require(result.rejected.only)
        #expect(rejected.location == "outline 66 (line 2)")
        #expect(rejected.text == "https://www.youtube.com/feeds/videos.xml?channel_id=SW8udTMcfcKX0")
        #expect(rejected.reason.contains("\"SW8udTMcfcKX0\" is not a valid channel id"))
    }

    @Test func prettyPrintedOPMLReadsEveryOutlineWithLineNumbers() throws {
        // Given a re-indented export of 363 feeds, and a raw one saved without an extension
        // When they are read
        let thelq = try ImportFixtures.read("youtube_opml/subscription_manager_2019_thelq_prettyprinted.xml")
        let lmbarr = try SubscriptionImporter.read(
            ImportFixtures.data("youtube_opml/subscription_manager_2020_lmbarr.xml"), fileName: "subscription_manager")
        // Then every feed is a channel with its decoded title
        #expect(thelq.channels.count == 363)
        #expect(thelq.rejected.isEmpty)
        #expect(thelq.channels[1].id == "UCiDJtJKMICpb9B1qf7qjEOA")
        #expect(thelq.channels[1].title == "Adam Savage’s Tested")
        #expect(thelq.channels.last?.id == "UC0z0jbN1psyxNJ5zvoWf-Ug")
        #expect(lmbarr.format == .opml)
        #expect(lmbarr.channels.count == 35)
        #expect(lmbarr.title(of: "UCJ24N4O0bP7LGLBDvye7oCA") == "Matt D'Avella")
    }

    // MARK: NewPipe

    @Test func newPipeExportKeepsTheFirstOfRepeatedURLsAndReportsTheRepeats() throws {
        // Given NewPipe's own fixture, which lists one channel under four names
        // When it is read
        let result = try ImportFixtures.read("newpipe/newpipe_official_import_export_test.json")
        // Then five channels remain, the first name wins, and each repeat is reported
        #expect(result.format == .newPipeJSON)
        #expect(result.ids == [
            "UCsXVk37bltHxD1rDPwtNM8Q", "UCEOXxzW2vU0P-0THehuIIeg", "UCAuUUnT6oDeKwE6v1NGQxug",
            "UCfIXdjDQH9Fau7y99_Orpjw", "UCJ0-OtVpF0wOKEqT2Z1HEtA",
        ])
        #expect(result.channels.first?.title == "Kurzgesagt – In a Nutshell")
        #expect(result.rejected.map(\.location) == ["subscriptions[5].url", "subscriptions[6].url", "subscriptions[7].url"])
        #expect(result.rejected.allSatisfy { $0.reason == "duplicate of subscriptions[0].url" })
    }

    // MARK: FreeTube

    @Test func freeTubeAppendLogReadsOnlyTheLastCopyOfTheProfile() throws {
        // Given a profiles.db with nine copies of `allChannels` growing from 44 to 46 subscriptions
        // When it is read
        let result = try ImportFixtures.read("freetube/freetube_profiles_jorisvandijk_appendlog.db")
        // Then the last copy's 46 channels come out once each, with names and thumbnails
        #expect(result.format == .freeTube)
        #expect(result.channels.count == 46)
        #expect(result.rejected.isEmpty)
        let first = try #require(result.channels.first)
        #expect(first.id == "UCdmcAwbdiXQWs9d4Qd4KzDw")
        #expect(first.title == "2 Much ColinFurze")
        #expect(first.thumbnailURL?.hasPrefix("https://yt3.googleusercontent.com/0vZ03MGG4EZuXXHeKNPi8U8QJDY") == true)
        #expect(result.channels.last?.id == "UC2rUTe_XMx88LR3JLJwyutw")
        #expect(result.channels.last?.title == "JustAGuy Linux")
    }

    @Test(arguments: [
        ("freetube/freetube_profiles_kleinpanic.db", 7, "UC3cpN6gcJQqcCM6mxRUo_dA", "Wendigoon", "Sam O'Nella Academy"),
        ("freetube/freetube_profiles_iliageorgiev_i18n_name.db", 6, "UCf_HItERkRB3vnkWt2RSOLg", "George Galloway", "Ado"),
        ("freetube/freetube_profiles_alessa-l.db", 187, "UC-3J5xNrAbTLbU1gN8mMpOA", "Nitro Rad", "Leonardo Abreu"),
    ])
    func freeTubeProfilesReadWhateverTheKeyOrderOrProfileName(
        path: String, count: Int, firstID: String, firstTitle: String, lastTitle: String
    ) throws {
        // Given a one-line profiles.db (`_id` last, a translation-key name, or 187 subscriptions)
        // When it is read
        let result = try ImportFixtures.read(path)
        // Then all of its subscriptions are channels
        #expect(result.format == .freeTube)
        #expect(result.channels.count == count)
        #expect(result.rejected.isEmpty)
        #expect(result.channels.first?.id == firstID)
        #expect(result.channels.first?.title == firstTitle)
        #expect(result.channels.last?.title == lastTitle)
        #expect(result.channels.allSatisfy { $0.thumbnailURL != nil })
    }

    // MARK: newsboat

    @Test func newsboatTitlesComeFromTildeTagsVerbatim() throws {
        // Given urls files with `"~Title"` tags, some ending in a space, and non-YouTube feeds
        // When they are read
        let davide = try ImportFixtures.read("newsboat/newsboat_urls_davideragaini.txt")
        let chausse = try ImportFixtures.read("newsboat/newsboat_urls_chaussebenjamin.txt")
        let voidrice = try ImportFixtures.read("newsboat/newsboat_urls_voidrice.txt")
        // Then the YouTube lines are channels with their titles; comments are skipped silently
        #expect(davide.format == .newsboatURLs)
        #expect(davide.channels.count == 31)
        #expect(davide.channels.first?.id == "UC4V3oCikXeSqYQr0hBMARwg")
        #expect(davide.channels.first?.title == "Breaking Italy")
        #expect(davide.title(of: "UCsXVk37bltHxD1rDPwtNM8Q") == "Kurzgesagt – In a Nutshell")
        #expect(davide.channels.last?.id == "UC8IKIlUPgPZ_NA1jKbsMfXw")
        #expect(!davide.ids.contains("UCafxR2HWJRmMfSdyZXvZMTw"))
        #expect(chausse.channels.count == 15)
        #expect(chausse.title(of: "UCxzC4EngIsMrPmbm6Nxvb-A") == "Youtube: Scott Manley ")
        #expect(voidrice.ids == ["UC2eYFnH61tmytImy1mTYvhA"])
        #expect(voidrice.channels.first?.title == "Luke Smith (YouTube)")
    }

    @Test func newsboatRejectsEveryFeedThatIsNotAChannelWithItsLine() throws {
        // Given urls files mixing YouTube channels with blogs, section separators and a query feed
        // When they are read
        let davide = try ImportFixtures.read("newsboat/newsboat_urls_davideragaini.txt")
        let awinquis = try ImportFixtures.read("newsboat/newsboat_urls_awinquis.txt")
        let chausse = try ImportFixtures.read("newsboat/newsboat_urls_chaussebenjamin.txt")
        // Then each of those lines is rejected with its line number, text and reason
        #expect(davide.rejected.count == 15)
        #expect(davide.rejected.first == RejectedEntry(location: "line 1", text: "---YOUTUBE---", reason: "not a channel id, @handle or YouTube URL"))
        #expect(davide.rejected[2].location == "line 40")
        #expect(davide.rejected[2].reason == "not a YouTube URL (host raw.githubusercontent.com)")
        #expect(chausse.rejected.count == 18)
        #expect(awinquis.channels.count == 6)
        #expect(awinquis.channels.allSatisfy { $0.title == nil })
        #expect(awinquis.rejected.map(\.location) == ["line 10", "line 12", "line 14", "line 16"])
        #expect(awinquis.rejected[0].text == #"query:Youtube subscriptions:tags # "youtube" and age < 7"#)
        #expect(awinquis.rejected[0].reason == "a newsboat query feed, not a channel")
    }

    @Test func newsboatsOwnParserFixtureHasNoChannelsButIsRecognised() throws {
        // Given newsboat's test-urls.txt: unquoted ~title, TAB separators, no YouTube feed
        // When it is read
        let result = try ImportFixtures.read("newsboat/newsboat_test-urls_upstream.txt")
        // Then it is a newsboat file whose three feeds are all rejected
        #expect(result.format == .newsboatURLs)
        #expect(result.channels.isEmpty)
        #expect(result.rejected.map(\.location) == ["line 1", "line 2", "line 4"])
    }

    // MARK: Detection

    @Test(arguments: [
        ("takeout_csv/takeout_subscriptions_german_locale_invidious_spec.csv", SubscriptionFormat.takeoutCSV),
        ("youtube_opml/subscription_manager_2020_lmbarr.xml", .opml),
        ("newpipe/newpipe_official_import_export_test.json", .newPipeJSON),
        ("freetube/freetube_profiles_kleinpanic.db", .freeTube),
        ("freetube/freetube_profiles_jorisvandijk_appendlog.db", .freeTube),
        ("newsboat/newsboat_urls_awinquis.txt", .newsboatURLs),
    ])
    func everyFixtureIsDetectedFromItsContentAlone(path: String, format: SubscriptionFormat) throws {
        // Given a fixture and no file name
        // When its format is detected
        let detected = SubscriptionFormat.detect(data: try ImportFixtures.data(path))
        // Then the content was enough
        #expect(detected == format)
    }
}

extension Array {
    /// The single element, `nil` when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
