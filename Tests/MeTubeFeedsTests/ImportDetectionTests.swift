import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// Format detection: the content decides, the file name settles what the content leaves open.
@Suite struct ImportDetectionTests {
    @Test func aListOfBareURLsIsNewsboatOnlyWhenNamedUrls() {
        // Given feed URLs without tags, which fit both a newsboat file and a plain list
        let data = Data("https://www.youtube.com/feeds/videos.xml?channel_id=UC2eYFnH61tmytImy1mTYvhA\n".utf8)
        // When the format is detected with and without newsboat's file name
        // Then the name decides
        #expect(SubscriptionFormat.detect(data: data) == .plainList)
        #expect(SubscriptionFormat.detect(data: data, fileName: "/home/me/.config/newsboat/urls") == .newsboatURLs)
    }

    @Test func brokenJSONIsAttributedByItsExtension() {
        // Given JSON too broken to show its shape
        let data = Data("{ broken".utf8)
        // When the format is detected with a FreeTube, a NewPipe, and no file name
        // Then the extension decides, and without one nothing fits
        #expect(SubscriptionFormat.detect(data: data, fileName: "profiles.db") == .freeTube)
        #expect(SubscriptionFormat.detect(data: data, fileName: "newpipe_subscriptions_202401011200.json") == .newPipeJSON)
        #expect(SubscriptionFormat.detect(data: data) == nil)
    }

    @Test func contentOutweighsAMisleadingName() {
        // Given a Takeout CSV saved as .json
        let data = Data("Channel Id,Channel Url,Channel Title\nUC2eYFnH61tmytImy1mTYvhA,http://www.youtube.com/channel/UC2eYFnH61tmytImy1mTYvhA,Luke\n".utf8)
        // When its format is detected
        // Then it is still a Takeout CSV
        #expect(SubscriptionFormat.detect(data: data, fileName: "subscriptions.json") == .takeoutCSV)
    }

    @Test func aOneColumnListNamedCSVIsAPlainList() {
        // Given channel ids one per line, saved as .csv by a spreadsheet
        let data = Data("UC2eYFnH61tmytImy1mTYvhA\nUCXuqSBlHAE6Xw-yeJA0Tunw\n".utf8)
        // When its format is detected
        // Then it is a plain list, not a broken Takeout file
        #expect(SubscriptionFormat.detect(data: data, fileName: "channels.csv") == .plainList)
    }

    @Test func anHTMLPageIsNamedAsSuch() {
        // Given the page a browser saves instead of an export
        let data = Data("<!DOCTYPE html>\n<html><head><title>YouTube</title></head></html>".utf8)
        // When it is read
        // Then the hint says it is a web page
        #expect(ImportFixtures.error(reading: data) == .unrecognizedFormat(hint: "an HTML page, not a subscription export"))
    }
}
