import MeTubeTransfer
import Testing

/// The general checks on what any peer sends: waits, titles, URLs and error text with its secrets.
@Suite struct PeerInputTests {
    @Test func retryAfterIsClampedAndNaNIsIgnored() {
        #expect(PeerInput.retryAfter(header: "2") == .seconds(2))
        #expect(PeerInput.retryAfter(header: " 0.25 ") == .milliseconds(250))
        #expect(PeerInput.retryAfter(header: "nan") == nil)
        #expect(PeerInput.retryAfter(header: "Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(PeerInput.retryAfter(header: String(repeating: "9", count: 100)) == nil)
        #expect(PeerInput.retryAfter(header: "inf") == PeerInput.maxRetryAfter)
        #expect(PeerInput.retryAfter(header: "1e300") == PeerInput.maxRetryAfter)
        #expect(PeerInput.retryAfter(header: "-inf") == .zero)
        #expect(PeerInput.retryAfter(seconds: 9.3e15) == PeerInput.maxRetryAfter)
        #expect(PeerInput.retryAfter(seconds: -1e300) == .zero)
        #expect(PeerInput.retryAfter(seconds: nil) == nil)
    }

    @Test func titlesAreCut() {
        #expect(PeerInput.title(String(repeating: "é", count: 10_000)).count == PeerInput.maxTitleCharacters)
    }

    @Test func tokensAreRedactedInEveryForm() {
        let token = "ab+/=cd"
        let text = "GET /x?ckAPIToken=metube&ckWebAuthToken=other-token&y=1 Authorization: Bearer xyz.123 raw ab+/=cd escaped ab%2B%2F%3Dcd"
        let redacted = PeerInput.redact(text, hiding: [token])
        #expect(!redacted.contains("ab+/=cd") && !redacted.contains("ab%2B%2F%3Dcd"))
        #expect(!redacted.contains("other-token") && !redacted.contains("xyz.123") && !redacted.contains("metube"))
        #expect(redacted.contains("ckAPIToken=<redacted>&") && redacted.contains("&y=1"))
    }

    @Test func errorTextIsOneShortLine() {
        #expect(PeerInput.errorText(Array("a\u{1B}[2J\nb\u{202E}c".utf8)) == "a?[2J?b?c")
        #expect(PeerInput.errorText(Array(String(repeating: "x", count: 1000).utf8)).count == 200)
    }
}
