import Hummingbird
import NIOCore

/// The request context of the full server: Hummingbird's basics and the client's address, which
/// the registration limit counts by.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension RequestContext {
    /// The client's IP address, or `unknown` when the context does not carry it.
    var clientAddress: String {
        (self as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "unknown"
    }
}
