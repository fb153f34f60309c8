import AsyncHTTPClient
import Foundation
import MeTubeAPI
import NIOCore

/// A client of a CloudKit-shaped status service: one method per route, each answering the
/// decoded response or throwing a ``StatusRequestFailure``.
public struct StatusClient: Sendable {
    /// Where the service is.
    public let endpoint: StatusEndpoint
    private let userToken: String
    private let httpClient: HTTPClient
    private let timeout: TimeAmount
    private let retryPolicy: RetryPolicy
    private let maxResponseBytes = 64 * 1024 * 1024

    /// Creates a client for `endpoint` acting as the user with `userToken`; each request gives
    /// up after `timeoutSeconds`, and retryable failures are retried by `retryPolicy` (the
    /// server's `retryAfter` is honoured when it asks for longer). By default requests go
    /// through `HTTPClient.sync`, where a refused connection fails at once rather than at the
    /// deadline, so an unreachable server is noticed quickly.
    public init(endpoint: StatusEndpoint, userToken: String, httpClient: HTTPClient = .sync, timeoutSeconds: Int64 = 30, retryPolicy: RetryPolicy = RetryPolicy()) {
        self.endpoint = endpoint
        self.userToken = userToken
        self.httpClient = httpClient
        self.timeout = .seconds(timeoutSeconds)
        self.retryPolicy = retryPolicy
    }

    /// `zones/modify`.
    public func modifyZones(_ request: StatusZonesModifyRequest) async throws(StatusRequestFailure) -> StatusZonesResponse {
        try await send("zones/modify", body: request)
    }

    /// `zones/list`.
    public func listZones() async throws(StatusRequestFailure) -> StatusZonesResponse {
        try await send("zones/list", body: nil as StatusZonesLookupRequest?)
    }

    /// `zones/lookup`.
    public func lookupZones(_ request: StatusZonesLookupRequest) async throws(StatusRequestFailure) -> StatusZonesResponse {
        try await send("zones/lookup", body: request)
    }

    /// `records/modify`.
    public func modifyRecords(_ request: StatusRecordsModifyRequest) async throws(StatusRequestFailure) -> StatusRecordsResponse {
        try await send("records/modify", body: request)
    }

    /// `records/lookup`.
    public func lookupRecords(_ request: StatusRecordsLookupRequest) async throws(StatusRequestFailure) -> StatusRecordsResponse {
        try await send("records/lookup", body: request)
    }

    /// `changes/zone`.
    public func zoneChanges(_ request: StatusZoneChangesRequest) async throws(StatusRequestFailure) -> StatusZoneChangesResponse {
        try await send("changes/zone", body: request)
    }

    /// Sends the request, retrying retryable failures after the policy's waits (or the
    /// server's `retryAfter` when longer). Every request of the protocol is safe to repeat: a
    /// repeated write answers CONFLICT or EXISTS carrying the server's record.
    private func send<Body: Encodable, Answer: Decodable>(_ operation: String, body: Body?) async throws(StatusRequestFailure) -> Answer {
        try await retryPolicy.perform { () async throws(StatusRequestFailure) -> Answer in
            try await sendOnce(operation, body: body)
        }
    }

    /// POSTs `body` as JSON (or GETs when it is nil) once and decodes the answer.
    private func sendOnce<Body: Encodable, Answer: Decodable>(_ operation: String, body: Body?) async throws(StatusRequestFailure) -> Answer {
        if Task.isCancelled { throw .cancelled }
        var request = HTTPClientRequest(url: endpoint.url(operation, userToken: userToken))
        if let body {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            do {
                request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
            } catch {
                throw .unreadable(httpStatus: 0, "could not encode the request: \(error)")
            }
        }
        let status: Int
        let bytes: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: timeout)
            status = Int(response.status.code)
            bytes = try await response.body.collect(upTo: maxResponseBytes)
        } catch is CancellationError {
            throw .cancelled
        } catch let error as HTTPClientError where error == .cancelled {
            throw .cancelled
        } catch {
            throw .unreachable(String(describing: error))
        }
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(status) else {
            if let error = try? JSONDecoder().decode(StatusErrorBody.self, from: data) {
                throw .server(error, httpStatus: status)
            }
            throw .unreadable(httpStatus: status, String(decoding: data.prefix(200), as: UTF8.self))
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw .unreadable(httpStatus: status, "\(error)")
        }
    }
}
