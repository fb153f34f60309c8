import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 connection with a ``SlowClientGuard`` in front of its decoder and a
/// ``RequestProgressObserver`` behind it; all connections of a server share one list of
/// ``IdleConnections`` and one ``ConnectionsByAddress``, which refuses a connection past its
/// address's cap before any of this is built.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let idleConnections: IdleConnections
    let connectionsByAddress: ConnectionsByAddress

    /// A server builder whose connections are guarded by `limits`, admitted by
    /// `connectionsByAddress`.
    static func server(limits: ConnectionLimits, connectionsByAddress: ConnectionsByAddress) -> HTTPServerBuilder {
        let idleConnections = IdleConnections(maxIdle: limits.maxIdleConnections, maxIdlePerAddress: limits.maxIdleConnectionsPerAddress)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, limits: limits, idleConnections: idleConnections, connectionsByAddress: connectionsByAddress)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connectionsByAddress.admit(channel) else {
            return channel.eventLoop.makeFailedFuture(ServerError.tooManyRequests("the client address holds its share of connections", retryAfter: 1))
        }
        let slowClientGuard = SlowClientGuard(limits: limits, idleConnections: idleConnections, connectionsByAddress: connectionsByAddress)
        // The observer is made and added on the channel's event loop, in `HTTP1Channel.setup`.
        let observer = NIOLoopBound(slowClientGuard, eventLoop: channel.eventLoop)
        let http = HTTP1Channel(responder: responder, configuration: .init(additionalChannelHandlers: [RequestProgressObserver(reportingTo: observer.value)]))
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(slowClientGuard)
        }.flatMap { http.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}
