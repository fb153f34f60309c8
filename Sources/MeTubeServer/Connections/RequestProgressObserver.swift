import NIOCore
import NIOHTTPTypes

/// Tells the connection's ``SlowClientGuard`` where the request and its answer stand: it sits
/// behind the HTTP decoder, where a request's head and end and an answer's head and end can be
/// seen, while the guard sits in front of it and sees only bytes.
final class RequestProgressObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let slowClientGuard: SlowClientGuard

    init(reportingTo slowClientGuard: SlowClientGuard) {
        self.slowClientGuard = slowClientGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: slowClientGuard.headReceived()
        case .body: break
        case .end: slowClientGuard.requestReceived()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head: slowClientGuard.answerStarted()
        case .body: break
        case .end: slowClientGuard.answerEnded()
        }
        context.write(data, promise: promise)
    }
}
