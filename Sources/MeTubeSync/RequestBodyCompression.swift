import AsyncHTTPClient
import CompressNIO
import Foundation
import MeTubeAPI
import MeTubeTransfer
import NIOCore
import NIOHTTP1
import Synchronization

/// gzip for the JSON bodies the client sends, only to a server that said it takes them.
///
/// A server lists the codings it accepts in request bodies in its answers' `Accept-Encoding`
/// header (RFC 7694 §3; `metube-server` says `gzip`). What each server said last is remembered
/// for the life of the process, by origin (scheme, host, port); a server not heard from yet, or
/// that does not say so, gets bodies as they are. A body of at least ``minimumBytes`` to a server
/// that takes gzip is sent gzipped (channel registrations, `records/modify`); when the server
/// answers it with 415 anyway (a proxy in front of it that does not), it is remembered as not
/// taking gzip from then on (whatever its answers say) and the body is sent again as it is, once.
enum RequestBodyCompression {
    /// The smallest body worth compressing.
    static var minimumBytes: Int { 1024 }

    /// The most origins remembered: a sync talks to two or three.
    static var maxOrigins: Int { 64 }

    /// What each origin heard from said about gzip bodies.
    private enum Verdict {
        /// Its last answer said it takes gzip.
        case takesGzip
        /// Its last answer said it does not.
        case doesNotTakeGzip
        /// It refused a gzipped body with 415: whatever its answers say after, bodies go as they are.
        case refusedGzip
    }

    private static let origins = Mutex<[String: Verdict]>([:])

    /// The origin of `url` (`scheme://host:port`, lowercased), or nil when it has none.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Whether `origin` said it takes gzip bodies, and never refused one.
    static func acceptsGzip(_ origin: String) -> Bool {
        origins.withLock { $0[origin] == .takesGzip }
    }

    /// Remembers what an answer from `origin` says about gzip bodies; an answer without
    /// `Accept-Encoding` says nothing.
    static func learn(from headers: HTTPHeaders, of origin: String) {
        let values = headers[canonicalForm: "accept-encoding"]
        guard !values.isEmpty else { return }
        remember(AcceptEncoding.acceptsGzip(values) ? .takesGzip : .doesNotTakeGzip, for: origin)
    }

    /// Remembers that `origin` refused a gzipped body.
    static func refused(by origin: String) {
        remember(.refusedGzip, for: origin)
    }

    private static func remember(_ verdict: Verdict, for origin: String) {
        origins.withLock { origins in
            guard origins[origin] != .refusedGzip else { return }
            if origins[origin] == nil, origins.count >= maxOrigins { origins.removeAll() }
            origins[origin] = verdict
        }
    }
}

extension HTTPClient {
    /// Sends `request` with `jsonBody` (when given) as its JSON body, gzipped when
    /// ``RequestBodyCompression`` says the server takes it, and reads the whole answer within
    /// `limits` (see ``transfer(_:limits:)``); learns from the answer whether the server takes
    /// gzip bodies.
    func transfer(_ request: HTTPClientRequest, jsonBody: ByteBuffer?, limits: TransferLimits) async throws(TransferFailure) -> PeerResponse {
        var request = request
        let origin = RequestBodyCompression.origin(of: request.url)
        if let jsonBody {
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            if let origin, jsonBody.readableBytes >= RequestBodyCompression.minimumBytes, RequestBodyCompression.acceptsGzip(origin),
               let gzipped = Self.gzip(jsonBody) {
                var compressed = request
                compressed.headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
                compressed.body = .bytes(gzipped)
                let response = try await transfer(compressed, limits: limits)
                guard response.status == 415 else {
                    RequestBodyCompression.learn(from: response.headers, of: origin)
                    return response
                }
                RequestBodyCompression.refused(by: origin)
            }
            request.body = .bytes(jsonBody)
        }
        let response = try await transfer(request, limits: limits)
        if let origin { RequestBodyCompression.learn(from: response.headers, of: origin) }
        return response
    }

    /// `body` gzipped, or nil when zlib fails (the body then goes as it is).
    private static func gzip(_ body: ByteBuffer) -> ByteBuffer? {
        var input = body
        return try? input.compress(with: .gzip())
    }
}
