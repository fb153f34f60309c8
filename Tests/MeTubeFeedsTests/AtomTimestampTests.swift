import Foundation
@testable import MeTubeCore
@testable import MeTubeFeeds
import Testing

@Suite struct AtomTimestampTests {
    @Test(arguments: [
        ("2024-12-30T14:57:28+00:00", 1_735_570_648.0),
        ("2024-12-30T14:57:28Z", 1_735_570_648.0),
        ("2024-12-30T16:57:28+02:00", 1_735_570_648.0),
        ("2024-12-30T09:57:28-0500", 1_735_570_648.0),
        ("2017-12-15T14:28:16.109921364+00:00", 1_513_348_096.109921364),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
    ])
    func parsesTheFormsFeedsUse(text: String, seconds: Double) throws {
        let date = try #require(ISO8601Timestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_01)
    }

    @Test(arguments: ["", "2024-12-30", "2024-13-01T00:00:00Z", "2024-12-30T14:57:28", "2024-12-30T14:57:28.Z", "2024-12-30T14:57:28Zjunk", "not a date"])
    func refusesWhatIsNotATimestamp(text: String) {
        #expect(ISO8601Timestamp.parse(text) == nil)
    }

    @Test func formatsWholeSecondsInUTCAndRoundTrips() {
        for seconds in [0.0, 1_735_570_648.75, 951_782_400, -86_401, 4_102_444_800] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = ISO8601Timestamp.format(date)
            #expect(ISO8601Timestamp.parse(text)?.timeIntervalSince1970 == seconds.rounded(.down))
        }
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_735_570_648)) == "2024-12-30T14:57:28Z")
    }
}
