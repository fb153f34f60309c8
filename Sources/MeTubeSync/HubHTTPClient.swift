import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// The client every sync request goes through: connection failures fail at once instead of
    /// being retried until the request deadline (the sync's own retry policy decides), connects
    /// time out after 5 s, and up to 8 connections per host serve direct mode's parallel fetches.
    public static let sync: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 8
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
