import AsyncHTTPClient
import Foundation
import MeTubeCore
import MeTubeTransfer
import NIOCore

/// Reads the signed-in account's subscriptions from the Data API, 50 a page through
/// `nextPageToken`. Bounded: ``limits`` a page, at most `maxPages` pages, a page token
/// seen before ends the reading. A 401 gets one refresh of the access token and one retry.
public struct YouTubeSubscriptionReader: Sendable {
    /// The most items asked for a page (the Data API's maximum).
    public static let pageSize = 50
    /// The longest page token followed.
    static let maxPageTokenBytes = 1024

    /// The OAuth client, for refreshing.
    public let oauth: YouTubeOAuthClient
    /// The most pages read (1,000 by default: 50,000 channels).
    public var maxPages: Int
    /// The bounds of each page (15 s and 4 MiB by default; a page of 50 is about 40 KB).
    public var limits: TransferLimits
    private let httpClient: HTTPClient

    /// Creates a reader.
    public init(oauth: YouTubeOAuthClient, maxPages: Int = 1_000, limits: TransferLimits = TransferLimits(total: .seconds(15), maxBodyBytes: 4 << 20), httpClient: HTTPClient = .peers) {
        self.oauth = oauth
        self.maxPages = maxPages
        self.limits = limits
        self.httpClient = httpClient
    }

    /// Every subscription, or those read before a failure with the failure; `onPage` hears the
    /// pages and channels read so far after each page.
    public func read(with credentials: YouTubeCredentials, onPage: (_ pages: Int, _ channels: Int) -> Void = { _, _ in }) async -> YouTubeSubscriptionList {
        var list = YouTubeSubscriptionList(credentials: credentials)
        var seenChannels = Set<String>()
        var seenTokens = Set<String>()
        var pageToken: String?
        do throws(YouTubeError) {
            while true {
                guard list.pages < maxPages else { throw .limitExceeded("the subscriptions have more than \(maxPages) pages") }
                let json = try await page(after: pageToken, credentials: &list.credentials)
                list.pages += 1
                try Self.screen(json, page: list.pages, into: &list, seen: &seenChannels)
                onPage(list.pages, list.channels.count)
                guard let next = json["nextPageToken"] else { return list }
                guard let token = YouTubeDeviceCode.code(next, maxBytes: Self.maxPageTokenBytes) else {
                    throw .unreadable("page \(list.pages): nextPageToken is not a page token")
                }
                guard seenTokens.insert(token).inserted else { throw .limitExceeded("page \(list.pages) names a page already read (nextPageToken repeats)") }
                pageToken = token
            }
        } catch {
            list.failure = error
            return list
        }
    }

    /// Adds the usable items of one page to `list`; a page that is not the documented shape
    /// (no `items` array) ends the reading.
    private static func screen(_ json: [String: Any], page: Int, into list: inout YouTubeSubscriptionList, seen: inout Set<String>) throws(YouTubeError) {
        guard let items = json["items"] as? [Any] else { throw .unreadable("page \(page) has no items list") }
        guard items.count <= 1_000 else { throw .limitExceeded("page \(page) has \(items.count) items") }
        for (index, item) in items.enumerated() {
            let snippet = (item as? [String: Any])?["snippet"] as? [String: Any]
            let resource = snippet?["resourceId"] as? [String: Any]
            guard let id = resource?["channelId"] as? String, ChannelID.isValid(id) else {
                let given = (resource?["channelId"] as? String).map { "'\(DisplayText.line($0, limit: 40))'" } ?? "no channelId"
                list.rejected.append("page \(page) item \(index + 1): \(given) is not a channel id")
                continue
            }
            guard seen.insert(id).inserted else { continue }
            let title = (snippet?["title"] as? String).map { PeerInput.title($0) }
            list.channels.append(Channel(id: id, title: title?.isEmpty == false ? title : nil, thumbnailURL: picture(snippet?["thumbnails"])))
        }
    }

    /// The largest of the snippet's pictures that is a short https URL.
    private static func picture(_ thumbnails: Any?) -> String? {
        guard let thumbnails = thumbnails as? [String: Any] else { return nil }
        for size in ["high", "medium", "default"] {
            guard let url = (thumbnails[size] as? [String: Any])?["url"] as? String,
                  let short = PeerInput.shortText(url), short.hasPrefix("https://"),
                  short.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }) else { continue }
            return short
        }
        return nil
    }

    /// One page as a JSON object; a 401 refreshes the access token once and asks again.
    private func page(after token: String?, credentials: inout YouTubeCredentials) async throws(YouTubeError) -> [String: Any] {
        if credentials.usableAccessToken() == nil { credentials = try await oauth.refresh(credentials) }
        do {
            return try await get(after: token, accessToken: credentials.accessToken ?? "")
        } catch .http(status: 401, _) {
            credentials = try await oauth.refresh(credentials)
            do {
                return try await get(after: token, accessToken: credentials.accessToken ?? "")
            } catch .http(status: 401, _) {
                throw .unauthorized
            }
        }
    }

    private func get(after token: String?, accessToken: String) async throws(YouTubeError) -> [String: Any] {
        if Task.isCancelled { throw .transfer(.cancelled, path: "/subscriptions") }
        var url = "\(oauth.configuration.apiURL)/subscriptions?part=snippet&mine=true&maxResults=\(Self.pageSize)"
        if let token { url += "&pageToken=\(PercentEncoding.escape(token))" }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "metube")
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        let response: PeerResponse
        do throws(TransferFailure) {
            response = try await httpClient.transfer(request, limits: limits)
        } catch {
            throw .transfer(error, path: "/subscriptions")
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any]
        guard (200..<300).contains(response.status) else {
            let error = json?["error"] as? [String: Any]
            let reasons = (error?["errors"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["reason"] as? String }
            if response.status == 403, reasons.contains(where: { $0 == "quotaExceeded" || $0 == "dailyLimitExceeded" || $0 == "rateLimitExceeded" }) {
                throw .clientQuotaExceeded
            }
            let message = (error?["message"] as? String).map { PeerInput.errorText($0.utf8, hiding: [accessToken]) }
                ?? PeerInput.errorText(response.body.readableBytesView, hiding: [accessToken])
            throw .http(status: response.status, message: message)
        }
        guard let json else { throw .unreadable("/subscriptions: the page is not a JSON object") }
        return json
    }
}
