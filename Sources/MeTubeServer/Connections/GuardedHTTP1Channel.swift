import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 connection with a ``SlowClientGuard`` in front of its decoder and a
/// ``RequestProgressObserver`` behind it; all connections of a server share one list of
/// ``IdleConnections`` and one count of ``SilentConnections``.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let idleConnections: IdleConnections
    let silentConnections: SilentConnections

    /// A server builder whose connections are guarded by `limits`, silent ones set aside in
    /// `silentConnections`.
    static func server(limits: ConnectionLimits, silentConnections: SilentConnections) -> HTTPServerBuilder {
        let idleConnections = IdleConnections(maxIdle: limits.maxIdleConnections)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, limits: limits, idleConnections: idleConnections, silentConnections: silentConnections)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let slowClientGuard = SlowClientGuard(limits: limits, idleConnections: idleConnections, silentConnections: silentConnections)
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
