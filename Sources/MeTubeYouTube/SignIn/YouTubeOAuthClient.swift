import AsyncHTTPClient
import Foundation
import MeTubeTransfer
import NIOCore

/// Talks to Google's OAuth 2.0 endpoints for TV and limited-input devices: asks for a device
/// code, polls for the tokens, and refreshes the access token. Every answer is bounded
/// (``limits``) and screened; a secret never reaches a message.
public struct YouTubeOAuthClient: Sendable {
    /// The grant type of a device-code poll.
    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

    /// What one poll of the token endpoint said.
    public enum Poll: Sendable, Equatable {
        /// The user has not finished yet (`authorization_pending`).
        case pending
        /// Poll more slowly (`slow_down`).
        case slowDown
        /// The user allowed it.
        case granted(YouTubeCredentials)
    }

    /// The client and endpoints.
    public let configuration: YouTubeConfiguration
    /// The bounds of each request (10 s and 64 KiB by default).
    public var limits: TransferLimits
    private let httpClient: HTTPClient

    /// Creates a client.
    public init(configuration: YouTubeConfiguration, limits: TransferLimits = TransferLimits(total: .seconds(10), maxBodyBytes: 64 << 10), httpClient: HTTPClient = .peers) {
        self.configuration = configuration
        self.limits = limits
        self.httpClient = httpClient
    }

    /// Asks `/device/code` for a code for the youtube.readonly scope.
    public func requestDeviceCode() async throws(YouTubeError) -> YouTubeDeviceCode {
        let json = try await post("/device/code", ["client_id": configuration.clientID, "scope": YouTubeConfiguration.scope])
        try Self.throwIfError(json)
        return try YouTubeDeviceCode(json: json)
    }

    /// Polls `/token` once with `deviceCode`; the documented errors other than
    /// `authorization_pending` and `slow_down` are thrown as their ``YouTubeError`` cases. A grant
    /// without a refresh token is refused: the sign-in would end within the hour.
    public func poll(_ deviceCode: YouTubeDeviceCode, now: Date = Date()) async throws(YouTubeError) -> Poll {
        let json = try await post("/token", [
            "client_id": configuration.clientID, "client_secret": configuration.clientSecret,
            "device_code": deviceCode.deviceCode, "grant_type": Self.deviceGrant,
        ])
        switch json["error"] as? String {
        case "authorization_pending": return .pending
        case "slow_down": return .slowDown
        default: try Self.throwIfError(json)
        }
        guard let refreshToken = YouTubeDeviceCode.code(json["refresh_token"], maxBytes: 2048) else { throw .noRefreshToken }
        var credentials = YouTubeCredentials(refreshToken: refreshToken)
        try Self.read(json, into: &credentials, now: now)
        return .granted(credentials)
    }

    /// `credentials` with a fresh access token from `/token` (and a new refresh token when Google
    /// sends one); a revoked or expired refresh token is `.invalidGrant`.
    public func refresh(_ credentials: YouTubeCredentials, now: Date = Date()) async throws(YouTubeError) -> YouTubeCredentials {
        let json = try await post("/token", [
            "client_id": configuration.clientID, "client_secret": configuration.clientSecret,
            "refresh_token": credentials.refreshToken, "grant_type": "refresh_token",
        ])
        try Self.throwIfError(json)
        var refreshed = credentials
        if let rotated = YouTubeDeviceCode.code(json["refresh_token"], maxBytes: 2048) { refreshed.refreshToken = rotated }
        try Self.read(json, into: &refreshed, now: now)
        return refreshed
    }

    /// Reads `access_token` and `expires_in` (held to 1 s…1 day; 1 h when missing).
    private static func read(_ json: [String: Any], into credentials: inout YouTubeCredentials, now: Date) throws(YouTubeError) {
        guard let accessToken = YouTubeDeviceCode.code(json["access_token"], maxBytes: 4096) else {
            throw .unreadable("the token answer has no usable access_token")
        }
        let lifetime = (json["expires_in"] as? NSNumber).map { YouTubeDeviceCode.whole($0.doubleValue, in: 1...86_400) } ?? 3_600
        credentials.accessToken = accessToken
        credentials.accessTokenExpires = now.addingTimeInterval(TimeInterval(lifetime))
    }

    /// Throws the failure an OAuth `error` names, if the answer has one.
    private static func throwIfError(_ json: [String: Any]) throws(YouTubeError) {
        guard let error = json["error"] else { return }
        let name = PeerInput.errorText(String(describing: error).utf8, limit: 60)
        let detail = (json["error_description"] as? String).map { PeerInput.errorText($0.utf8, limit: 200) } ?? ""
        switch name {
        case "access_denied": throw .accessDenied
        case "expired_token": throw .expired
        case "invalid_client", "unauthorized_client": throw .invalidClient(detail)
        case "invalid_grant": throw .invalidGrant(detail)
        default: throw .oauth(error: name, detail: detail)
        }
    }

    /// POSTs `form` to `path` and reads the answer as a JSON object, whatever its status (Google
    /// answers OAuth errors with 400, 401, 403 and 428 and a JSON body); a non-JSON answer is an
    /// HTTP error or an unreadable answer.
    private func post(_ path: String, _ form: [String: String]) async throws(YouTubeError) -> [String: Any] {
        if Task.isCancelled { throw .transfer(.cancelled, path: path) }
        var request = HTTPClientRequest(url: configuration.oauthURL + path)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "metube")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let body = form.sorted { $0.key < $1.key }.map { "\($0.key)=\(PercentEncoding.escape($0.value))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        let response: PeerResponse
        do throws(TransferFailure) {
            response = try await httpClient.transfer(request, limits: limits)
        } catch {
            throw .transfer(error, path: path)
        }
        let secrets = [configuration.clientSecret] + form.values.filter { $0.count > 8 && $0 != configuration.clientID && $0 != YouTubeConfiguration.scope }
        guard let json = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] else {
            let text = PeerInput.errorText(response.body.readableBytesView, hiding: secrets)
            if (200..<300).contains(response.status) { throw .unreadable("\(path): not a JSON object") }
            throw .http(status: response.status, message: text)
        }
        guard (200..<300).contains(response.status) || json["error"] != nil else {
            throw .http(status: response.status, message: "")
        }
        return json
    }
}
