import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the full server: Hummingbird's basics and the client's address, which
/// the registration limit counts by.
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address of the connection's peer.
    public let remoteAddress: SocketAddress?
    /// The client's address as a trusted proxy forwarded it (see ``ForwardedClientMiddleware``).
    var forwardedClient: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension RequestContext {
    /// The client's IP address, or `unknown` when the context does not carry it.
    var clientAddress: String {
        if let forwarded = (self as? ServerRequestContext)?.forwardedClient { return forwarded }
        return (self as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// Sets the request's client address from a trusted proxy's `Forwarded` / `X-Forwarded-For`
/// header (see ``TrustedProxies``).
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let trustedProxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trustedProxies.isEmpty, let peer = context.remoteAddress?.ipAddress else { return try await next(request, context) }
        var context = context
        context.forwardedClient = trustedProxies.client(
            peer: peer, forwarded: Self.joined(request.headers[values: .forwarded]), forwardedFor: Self.joined(request.headers[values: .xForwardedFor]))
        return try await next(request, context)
    }

    /// A header's lines as one comma-separated list (RFC 9110, 5.3); nil when it has none.
    private static func joined(_ lines: [String]) -> String? {
        lines.isEmpty ? nil : lines.joined(separator: ", ")
    }
}

extension HTTPField.Name {
    /// `Forwarded` (RFC 7239).
    static var forwarded: Self { Self("Forwarded")! }
    /// `X-Forwarded-For`.
    static var xForwardedFor: Self { Self("X-Forwarded-For")! }
}
