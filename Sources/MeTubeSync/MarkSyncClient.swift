import AsyncHTTPClient
import Foundation
import MeTubeAPI
import MeTubeTransfer
import NIOCore

/// A client of a CloudKit-shaped mark-sync service: one method per route, each answering the
/// decoded response or throwing a ``MarkSyncRequestFailure``.
public struct MarkSyncClient: Sendable {
    /// Where the service is.
    public let endpoint: MarkSyncEndpoint
    private let userToken: String
    private let httpClient: HTTPClient
    private var limits: TransferLimits
    private let retryPolicy: RetryPolicy

    /// Creates a client for `endpoint` acting as the user with `userToken`; each request gives
    /// up after `timeoutSeconds`, and retryable failures are retried by `retryPolicy` (the
    /// server's `retryAfter` is honoured when it asks for longer). Each request is bounded in
    /// total time, body rate and size (``TransferLimits``). By default requests go
    /// through `HTTPClient.peers`, where a refused connection fails at once rather than at the
    /// deadline, so an unreachable server is noticed quickly.
    public init(endpoint: MarkSyncEndpoint, userToken: String, httpClient: HTTPClient = .peers, timeoutSeconds: Int64 = 30, retryPolicy: RetryPolicy = RetryPolicy()) {
        self.endpoint = endpoint
        self.userToken = userToken
        self.httpClient = httpClient
        self.limits = TransferLimits(total: .seconds(max(1, timeoutSeconds)))
        self.retryPolicy = retryPolicy
    }

    /// When the run the requests belong to ends; no request outlives it.
    private var runDeadline: ContinuousClock.Instant?

    /// This client with every request ending by `deadline` at the latest.
    func bounded(by deadline: ContinuousClock.Instant) -> MarkSyncClient {
        var client = self
        client.runDeadline = deadline
        return client
    }

    /// `zones/modify`.
    public func modifyZones(_ request: MarkSyncZonesModifyRequest) async throws(MarkSyncRequestFailure) -> MarkSyncZonesResponse {
        try await send("zones/modify", body: request)
    }

    /// A page of `zones/list`: at most `resultsLimit` zones (the server's most when nil) after
    /// `continuationMarker` (from the first zone when nil); its `continuationMarker` is there
    /// while more follow. metube only probes with it, so it asks for one zone.
    public func listZones(resultsLimit: Int? = nil, continuationMarker: String? = nil) async throws(MarkSyncRequestFailure) -> MarkSyncZonesResponse {
        let query = [("resultsLimit", resultsLimit.map(String.init)), ("continuationMarker", continuationMarker)]
            .compactMap { name, value in value.map { "&\(name)=\(PercentEncoding.escape($0))" } }.joined()
        return try await send("zones/list", query: query, body: nil as MarkSyncZonesLookupRequest?)
    }

    /// `zones/lookup`.
    public func lookupZones(_ request: MarkSyncZonesLookupRequest) async throws(MarkSyncRequestFailure) -> MarkSyncZonesResponse {
        try await send("zones/lookup", body: request)
    }

    /// `records/modify`.
    public func modifyRecords(_ request: MarkSyncRecordsModifyRequest) async throws(MarkSyncRequestFailure) -> MarkSyncRecordsResponse {
        try await send("records/modify", body: request)
    }

    /// `records/lookup`.
    public func lookupRecords(_ request: MarkSyncRecordsLookupRequest) async throws(MarkSyncRequestFailure) -> MarkSyncRecordsResponse {
        try await send("records/lookup", body: request)
    }

    /// `changes/zone`; a record that cannot be read whole comes back as its bare name (see
    /// ``ScreenedZoneChangesResponse``), so one bad record never fails the page.
    public func zoneChanges(_ request: MarkSyncZoneChangesRequest) async throws(MarkSyncRequestFailure) -> MarkSyncZoneChangesResponse {
        let screened: ScreenedZoneChangesResponse = try await send("changes/zone", body: request)
        return screened.response
    }

    /// Sends the request, retrying retryable failures after the policy's waits (or the
    /// server's `retryAfter` when longer, clamped by ``PeerInput``). Every request of the
    /// protocol is safe to repeat: a repeated write answers CONFLICT or EXISTS carrying the
    /// server's record.
    private func send<Body: Encodable, Answer: Decodable>(_ operation: String, query: String = "", body: Body?) async throws(MarkSyncRequestFailure) -> Answer {
        try await retryPolicy.perform { () async throws(MarkSyncRequestFailure) -> Answer in
            try await sendOnce(operation, query: query, body: body)
        }
    }

    /// POSTs `body` as JSON (or GETs when it is nil) once, within ``limits``, and decodes the
    /// answer. The user token goes in the `Authorization` header, and is redacted from every
    /// message this makes.
    private func sendOnce<Body: Encodable, Answer: Decodable>(_ operation: String, query: String, body: Body?) async throws(MarkSyncRequestFailure) -> Answer {
        if Task.isCancelled { throw .cancelled }
        var request = HTTPClientRequest(url: endpoint.url(operation) + query)
        request.headers.add(name: "Authorization", value: "Bearer \(userToken)")
        var jsonBody: ByteBuffer?
        if let body {
            request.method = .POST
            do {
                jsonBody = ByteBuffer(bytes: try JSONEncoder().encode(body))
            } catch {
                throw .unreadable(httpStatus: 0, "could not encode the request: \(error)")
            }
        }
        let response: PeerResponse
        do throws(TransferFailure) {
            var limits = limits
            limits.runDeadline = runDeadline
            response = try await httpClient.transfer(request, jsonBody: jsonBody, limits: limits)
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .unreachable(redacted(error.message))
        }
        let data = Data(response.body.readableBytesView)
        guard (200..<300).contains(response.status) else {
            if var error = try? JSONDecoder().decode(MarkSyncErrorBody.self, from: data) {
                error.reason = PeerInput.errorText(error.reason.utf8, hiding: [userToken])
                throw .server(error, httpStatus: response.status)
            }
            throw .unreadable(httpStatus: response.status, PeerInput.errorText(data, hiding: [userToken]))
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw .unreadable(httpStatus: response.status, redacted(HubClient.describe(error)))
        }
    }

    /// `text` without the user token or any other credential.
    private func redacted(_ text: String) -> String {
        PeerInput.redact(text, hiding: [userToken])
    }
}
