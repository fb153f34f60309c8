import AsyncHTTPClient
import NIOCore

extension HTTPClient {
    /// The largest size any answer may inflate to; each request's ``TransferLimits/maxBodyBytes``
    /// bounds its own answer's inflated size below that.
    static var maxInflatedBytes: Int { 64 << 20 }

    /// The client every request to a peer goes through (sync, YouTube sign-in, SponsorBlock):
    /// connection failures fail at once instead of being retried until the request deadline (the
    /// caller's own retry policy decides), connects time out after 5 s, and up to 8 connections
    /// per host serve direct mode's parallel fetches.
    /// It asks for gzip (`Accept-Encoding: deflate, gzip`) and inflates the answer as it streams
    /// in, so memory stays bounded by the answer's limit whatever the compressed stream holds.
    public static let peers: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .enabled(limit: .size(maxInflatedBytes))
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 8
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
