import MeTubeCore
import Testing

/// ``Swift/Duration``'s `seconds`, `milliseconds` and `wholeMilliseconds`, which the TUI, the
/// sync engine, the server and the benchmarks share.
@Suite struct DurationUnitsTests {
    @Test func fractionsAreKeptAndWholeMillisecondsRoundTowardZero() {
        #expect((Duration.seconds(2) + .milliseconds(250)).seconds == 2.25)
        let duration = Duration.seconds(2) + .microseconds(2_500)
        #expect(duration.milliseconds == 2_002.5)
        #expect(duration.wholeMilliseconds == 2_002)
        #expect(Duration.zero.milliseconds == 0 && Duration.nanoseconds(999_999).wholeMilliseconds == 0)
    }

    @Test func negativeDurationsStayNegative() {
        let duration = Duration.milliseconds(-1_250)
        #expect(duration.seconds == -1.25)
        #expect(duration.milliseconds == -1_250)
        #expect(duration.wholeMilliseconds == -1_250)
    }
}
