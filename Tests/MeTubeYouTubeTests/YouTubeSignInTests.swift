import Foundation
import MeTubeCore
import MeTubeTransfer
import MeTubeYouTube
import Synchronization
import Testing
import TestSupport

/// Signing in with YouTube (the OAuth device flow) and reading the subscriptions, against a
/// loopback stub answering in Google's documented shapes, honest and hostile. Serialized, with
/// a minute per request: the stub answers from the cooperative pool, which the other suites'
/// store work can hold for seconds on a loaded machine.
@Suite(.serialized) struct YouTubeSignInTests {
    /// Generous bounds for a loaded test machine; the size bound stays the reader's own.
    static let patient = TransferLimits(total: .seconds(60), maxBodyBytes: 64 << 10)

    /// Records the waits of a device flow instead of making them.
    final class Waits: Sendable {
        let made = Mutex<[Duration]>([])
        var all: [Duration] { made.withLock { $0 } }
        var record: @Sendable (Duration) async throws -> Void { { duration in self.made.withLock { $0.append(duration) } } }
    }

    static func client(_ stub: YouTubeStub) -> YouTubeOAuthClient {
        YouTubeOAuthClient(configuration: YouTubeConfiguration(clientID: "client-1", clientSecret: "secret-1", oauthURL: stub.url, apiURL: stub.url + "/"), limits: patient)
    }

    static func reader(_ stub: YouTubeStub, maxPages: Int = 1_000) -> YouTubeSubscriptionReader {
        YouTubeSubscriptionReader(oauth: client(stub), maxPages: maxPages, limits: TransferLimits(total: .seconds(60), maxBodyBytes: 4 << 20))
    }

    static func channels(_ count: Int) -> [(id: String, title: String)] {
        (0..<count).map { (YouTubeStub.channelID($0), "Channel \($0)") }
    }

    static func signIn(polls: [YouTubeStub.Reply], deviceCode: String = YouTubeStub.deviceCode()) async throws -> (result: Result<YouTubeCredentials, YouTubeError>, waits: [Duration], stub: YouTubeStub) {
        let stub = await YouTubeStub.start(polls: polls) { request, _ in request.path == "/device/code" ? .json(deviceCode) : nil }
        defer { stub.stop() }
        let client = client(stub)
        let waits = Waits()
        let code = try await client.requestDeviceCode()
        let login = YouTubeDeviceLogin(client: client, wait: waits.record)
        do {
            return (.success(try await login.credentials(for: code)), waits.all, stub)
        } catch {
            return (.failure(error), waits.all, stub)
        }
    }

    @Test func pendingThenSlowDownThenGranted() async throws {
        // Given a user who takes two polls to finish, and a server that asks once to slow down
        let pending = YouTubeStub.Reply.json(YouTubeStub.oauthError("authorization_pending", description: "Precondition Required"), status: 428)
        let slowDown = YouTubeStub.Reply.json(YouTubeStub.oauthError("slow_down", description: "Forbidden"), status: 403)
        let granted = YouTubeStub.Reply.json(YouTubeStub.token(access: "access-0", refresh: "refresh-1"))
        let (result, waits, stub) = try await Self.signIn(polls: [pending, slowDown, pending, granted])

        // Then the flow waits the interval, 5 s more after slow_down, and ends with the refresh token
        #expect(try result.get().refreshToken == "refresh-1")
        #expect(try result.get().usableAccessToken() == "access-0")
        #expect(waits == [.seconds(5), .seconds(5), .seconds(10), .seconds(10)])
        // And each poll is the documented device-code grant with the client's secret
        let polls = stub.requests.filter { $0.path == "/token" }
        #expect(polls.count == 4)
        #expect(polls.allSatisfy { $0.form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" && $0.form["client_secret"] == "secret-1" })
        #expect(stub.requests.first?.form["scope"] == "https://www.googleapis.com/auth/youtube.readonly")
    }

    @Test func deniedExpiredAndBadClientEachSayWhy() async throws {
        let denied = try await Self.signIn(polls: [.json(YouTubeStub.oauthError("access_denied", description: "Forbidden"), status: 403)]).result
        #expect(denied.failure == .accessDenied)
        let expired = try await Self.signIn(polls: [.json(YouTubeStub.oauthError("expired_token", description: "Bad Request"), status: 400)]).result
        #expect(expired.failure == .expired)
        let badClient = try await Self.signIn(polls: [.json(YouTubeStub.oauthError("invalid_client", description: "The OAuth client was not found."), status: 401)]).result
        #expect(badClient.failure == .invalidClient("The OAuth client was not found."))
        let badGrant = try await Self.signIn(polls: [.json(YouTubeStub.oauthError("invalid_grant", description: "Malformed auth code."), status: 400)]).result
        #expect(badGrant.failure?.description.contains("run `metube youtube login` again") == true)
    }

    @Test func theCodeRunsOutWhileTheUserNeverAnswers() async throws {
        // Given a code good for 12 s and a user who never finishes
        let pending = YouTubeStub.Reply.json(YouTubeStub.oauthError("authorization_pending"), status: 428)
        let (result, waits, _) = try await Self.signIn(polls: [pending], deviceCode: YouTubeStub.deviceCode(interval: "5", expiresIn: "12"))

        // Then the flow stops at expires_in: it waited 12 s in all
        #expect(result.failure == .expired)
        #expect(waits == [.seconds(5), .seconds(5), .seconds(2)])
    }

    @Test func anIntervalOfZeroOrABillionIsHeldToItsBounds() async throws {
        let pending = YouTubeStub.Reply.json(YouTubeStub.oauthError("authorization_pending"), status: 428)
        let granted = YouTubeStub.Reply.json(YouTubeStub.token(access: "access-0", refresh: "refresh-1"))
        let fast = try await Self.signIn(polls: [pending, granted], deviceCode: YouTubeStub.deviceCode(interval: "0"))
        #expect(fast.waits == [.seconds(1), .seconds(1)])
        let slow = try await Self.signIn(polls: [pending, granted], deviceCode: YouTubeStub.deviceCode(interval: "1000000000", expiresIn: "1e300"))
        #expect(slow.waits == [.seconds(60), .seconds(60)])
        #expect(try slow.result.get().refreshToken == "refresh-1")
    }

    @Test func aGrantWithoutARefreshTokenIsRefused() async throws {
        let (result, _, _) = try await Self.signIn(polls: [.json(YouTubeStub.token(access: "access-0", refresh: nil))])
        #expect(result.failure == .noRefreshToken)
    }

    @Test func aDeviceCodeAnswerOfTheWrongShapeIsRefused() async throws {
        let stub = await YouTubeStub.start { request, _ in
            request.path == "/device/code" ? .json("{\"device_code\":\"x\",\"user_code\":\"\\u001b[2J\",\"verification_url\":\"https://www.google.com/device\"}") : nil
        }
        defer { stub.stop() }
        await #expect(throws: YouTubeError.unreadable("the device-code answer has no usable user_code")) { try await Self.client(stub).requestDeviceCode() }
    }

    @Test func pagesAreReadThroughNextPageToken() async throws {
        // Given an account with 120 subscriptions (three pages)
        let stub = await YouTubeStub.start(channels: Self.channels(120))
        defer { stub.stop() }

        // When they are read with a fresh sign-in
        let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "refresh-1"))

        // Then every channel is there once, with its title and picture, in three pages of 50
        #expect(list.failure == nil)
        #expect(list.pages == 3)
        try #require(list.channels.map(\.id) == Self.channels(120).map(\.id))
        #expect(list.channels[7].title == "Channel 7")
        #expect(list.channels[7].thumbnailURL == "https://yt3.ggpht.com/\(YouTubeStub.channelID(7))=s800")
        let pages = stub.requests.filter { $0.path == "/subscriptions" }
        #expect(pages.map { $0.query["pageToken"] } == [nil, "p1", "p2"])
        #expect(pages.allSatisfy { $0.query["mine"] == "true" && $0.query["maxResults"] == "50" && $0.query["part"] == "snippet" })
    }

    @Test func aStaleAccessTokenIsRefreshedOnce() async throws {
        // Given saved credentials whose access token the API no longer takes
        let stub = await YouTubeStub.start(channels: Self.channels(3), initialAccessToken: "fresh-only")
        defer { stub.stop() }
        let saved = YouTubeCredentials(refreshToken: "refresh-1", accessToken: "stale", accessTokenExpires: Date().addingTimeInterval(3000))

        // When the subscriptions are read
        let list = await Self.reader(stub).read(with: saved)

        // Then the 401 led to one refresh, and the new token is handed back to be saved
        #expect(list.failure == nil)
        #expect(list.channels.count == 3)
        #expect(list.credentials.accessToken == "access-1")
        #expect(stub.requests.map(\.path) == ["/subscriptions", "/token", "/subscriptions"])
    }

    @Test func aRevokedRefreshTokenStopsWithSignInAgain() async throws {
        let stub = await YouTubeStub.start(channels: Self.channels(3))
        defer { stub.stop() }
        let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "revoked"))
        #expect(list.failure == .invalidGrant("Token has been expired or revoked."))
        #expect(list.failure?.description.contains("revoked") == true)
        #expect(list.channels.isEmpty)
    }

    @Test func a401ThatARefreshCannotFixStops() async throws {
        let stub = await YouTubeStub.start(channels: Self.channels(3)) { request, _ in
            request.path == "/subscriptions" ? .json(YouTubeStub.apiError(status: 401, reason: "authError", message: "Invalid Credentials"), status: 401) : nil
        }
        defer { stub.stop() }
        let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "refresh-1"))
        #expect(list.failure == .unauthorized)
    }

    @Test func quotaExceededKeepsThePagesAlreadyRead() async throws {
        // Given a quota that runs out on the third page
        let stub = await YouTubeStub.start(channels: Self.channels(150)) { request, pagesBefore in
            request.path == "/subscriptions" && pagesBefore == 2
                ? .json(YouTubeStub.apiError(status: 403, reason: "quotaExceeded", message: "The request cannot be completed because you have exceeded your quota."), status: 403)
                : nil
        }
        defer { stub.stop() }
        let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "refresh-1"))
        #expect(list.failure == .clientQuotaExceeded)
        #expect(list.channels.count == 100)
    }

    @Test func aNextPageTokenThatRepeatsForEverEndsTheReading() async throws {
        let stub = await YouTubeStub.start { request, pagesBefore in
            request.path == "/subscriptions" ? .json(YouTubeStub.subscriptionsPage([(YouTubeStub.channelID(pagesBefore), "c")], next: "again")) : nil
        }
        defer { stub.stop() }
        let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "refresh-1"))
        guard case .limitExceeded(let reason)? = list.failure else { Issue.record("not stopped: \(String(describing: list.failure))"); return }
        #expect(reason.contains("repeats"))
        #expect(list.pages == 2 && list.channels.count == 2)
    }

    @Test func endlessFreshPageTokensStopAtThePageBound() async throws {
        let stub = await YouTubeStub.start { request, pagesBefore in
            request.path == "/subscriptions" ? .json(YouTubeStub.subscriptionsPage([(YouTubeStub.channelID(pagesBefore), "c")], next: "p\(pagesBefore + 1)")) : nil
        }
        defer { stub.stop() }
        let list = await Self.reader(stub, maxPages: 5).read(with: YouTubeCredentials(refreshToken: "refresh-1"))
        #expect(list.failure == .limitExceeded("the subscriptions have more than 5 pages"))
        #expect(list.channels.count == 5)
    }

    @Test func aHugePageBadJSONAndTheWrongShapeEachStopCleanly() async throws {
        let huge = "{\"items\":[" + String(repeating: "{\"snippet\":{\"title\":\"" + String(repeating: "x", count: 1_000) + "\"}},", count: 50_000) + "{}]}"
        let answers = [huge, "{\"items\":[{\"snippet\":", "{\"kind\":\"youtube#subscriptionListResponse\",\"items\":\"none\"}"]
        var failures: [YouTubeError?] = []
        for answer in answers {
            let stub = await YouTubeStub.start { request, _ in request.path == "/subscriptions" ? .json(answer) : nil }
            let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "refresh-1"))
            stub.stop()
            failures.append(list.failure)
            #expect(list.channels.isEmpty)
        }
        #expect(failures[0]?.description.contains("larger than 4 MiB") == true, "\(String(describing: failures[0]))")
        #expect(failures[1] == .unreadable("/subscriptions: the page is not a JSON object"))
        #expect(failures[2] == .unreadable("page 1 has no items list"))
    }

    @Test func aSignInFailureReadsAsOneLineAndSaysWhetherToSignInAgain() {
        #expect(YouTubeError.transfer(.timedOut(seconds: 10), path: "/token").description == "the server did not answer within 10 s")
        #expect(YouTubeError.transfer(.tooLarge(maxBytes: 4 << 20), path: "/subscriptions").description == "stopped: /subscriptions: the answer is larger than 4 MiB")
        #expect(YouTubeError.http(status: 502, message: "").description == "the server answered HTTP 502")
        #expect(YouTubeError.http(status: 400, message: "bad").description == "the server answered HTTP 400: bad")
        #expect(YouTubeError.unreadable("/token: not a JSON object").description == "unreadable answer from the server: /token: not a JSON object")
        #expect(YouTubeError.limitExceeded("page 3 has 5000 items").description == "stopped: page 3 has 5000 items")
        #expect(YouTubeError.clientQuotaExceeded.description.contains("(quotaExceeded); try again tomorrow"))
        let signingInAgainHelps: [YouTubeError] = [.notSignedIn, .accessDenied, .expired, .invalidGrant(""), .noRefreshToken, .unauthorized]
        #expect(signingInAgainHelps.filter(\.needsSignIn) == signingInAgainHelps)
        let signingInAgainWontHelp: [YouTubeError] = [.noClient, .invalidClient(""), .clientQuotaExceeded, .oauth(error: "e", detail: ""), .http(status: 401, message: "")]
        #expect(signingInAgainWontHelp.filter(\.needsSignIn).isEmpty)
    }

    @Test func badChannelIdsAreRejectedAndTitlesBounded() async throws {
        // Given a page with ids that are not channel ids and titles with escape sequences or 1 MB
        let evil = [(id: "UC../../etc/passwd", title: "x"), (id: "\u{1b}[2J", title: "y"), (id: YouTubeStub.channelID(1), title: "\u{1b}]0;pwned\u{7}Evil\u{1b}[31m"),
                    (id: YouTubeStub.channelID(2), title: String(repeating: "t", count: 1 << 20))]
        let stub = await YouTubeStub.start(channels: evil)
        defer { stub.stop() }
        let list = await Self.reader(stub).read(with: YouTubeCredentials(refreshToken: "refresh-1"))

        // Then only the two good channels come in, the bad ids are reported safely, the long title is cut
        #expect(list.failure == nil)
        try #require(list.channels.map(\.id) == [YouTubeStub.channelID(1), YouTubeStub.channelID(2)])
        #expect(list.rejected.count == 2)
        #expect(list.rejected.allSatisfy { !$0.unicodeScalars.contains { $0.value == 0x1b } })
        #expect(list.channels[1].title?.count == 500)
        #expect(DisplayText.line(list.channels[0].title ?? "").unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f })
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
