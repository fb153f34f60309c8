import MeTubeAPI
import MeTubeTransfer

/// Where the mark-sync service is and which database to use: server URL, container, environment
/// and the container's API token.
public struct MarkSyncEndpoint: Codable, Sendable, Hashable {
    /// The container metube uses unless told otherwise.
    public static let defaultContainer = "iCloud.com.metube.app"
    /// The API token of the default container on metube-server.
    public static let defaultAPIToken = "metube"

    /// The server's base URL, e.g. `https://status.example.org`.
    public var serverURL: String
    /// The container id.
    public var container: String
    /// `development` or `production`.
    public var environment: String
    /// The container's API token (`ckAPIToken`).
    public var apiToken: String

    /// Creates an endpoint; by default metube's container in production.
    public init(serverURL: String, container: String = Self.defaultContainer, environment: String = "production", apiToken: String = Self.defaultAPIToken) {
        self.serverURL = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        self.container = container
        self.environment = environment
        self.apiToken = apiToken
    }

    /// The URL of `operation` (e.g. `records/modify`) in the private database, carrying the
    /// container's API token as a query parameter. The user token travels in an
    /// `Authorization: Bearer` header instead, which proxies are less likely to log.
    func url(_ operation: String) -> String {
        "\(serverURL)/database/1/\(PercentEncoding.escape(container))/\(PercentEncoding.escape(environment))/private/\(operation)"
            + "?ckAPIToken=\(PercentEncoding.escape(apiToken))"
    }
}
