import Foundation
import Hummingbird
import MeTubeAPI
import NIOCore

/// The HTTP face of the mark-sync service: routes under
/// `/database/1/{container}/{environment}/private/…` (and `…/public/users/caller`), every answer
/// in the documented JSON shape.
/// Their errors are answered by ``ServerErrorMiddleware``, which a router serving them needs.
public struct MarkSyncRoutes: Sendable {
    /// The behaviour behind the routes.
    public let service: MarkSyncService

    /// Creates the routes for `service`.
    public init(service: MarkSyncService) {
        self.service = service
    }

    /// Creates the routes for a service over `repository` configured by `configuration`.
    public init(repository: any MarkSyncRepository, configuration: MarkSyncConfiguration = .init()) {
        self.init(service: MarkSyncService(repository: repository, configuration: configuration))
    }

    /// Adds the mark-sync routes to `router`.
    public func register<Context: RequestContext>(on router: Router<Context>) {
        let group = router.group("database/:version/:container/:environment/:database")
        let service = service
        group.post("zones/modify") { request, context in
            try await respond(to: request, context: context, body: MarkSyncZonesModifyRequest.self) { body, _, caller in
                try await service.modifyZones(body, caller: caller)
            }
        }
        group.get("zones/list") { request, context in
            let caller = try await authenticate(request, context: context)
            let query = request.uri.queryParameters
            let page = try MarkSyncZoneListPage(
                resultsLimit: query.get("resultsLimit"), continuationMarker: query.get("continuationMarker"),
                maxLimit: service.configuration.maxRecordsPerResponse)
            return try MarkSyncResponses.json(try await service.listZones(page, caller: caller))
        }
        group.post("zones/lookup") { request, context in
            try await respond(to: request, context: context, body: MarkSyncZonesLookupRequest.self) { body, _, caller in
                try await service.lookupZones(body, caller: caller)
            }
        }
        group.post("records/modify") { request, context in
            try await respond(to: request, context: context, body: MarkSyncRecordsModifyRequest.self, write: MarkSyncJSONWriter.records) { body, size, caller in
                try await service.modifyRecords(body, bodyBytes: size, caller: caller)
            }
        }
        group.post("records/lookup") { request, context in
            try await respond(to: request, context: context, body: MarkSyncRecordsLookupRequest.self) { body, _, caller in
                try await service.lookupRecords(body, caller: caller)
            }
        }
        group.post("changes/zone") { request, context in
            try await respond(to: request, context: context, body: MarkSyncZoneChangesRequest.self, write: MarkSyncJSONWriter.zoneChanges) { body, _, caller in
                try await service.zoneChanges(body, caller: caller)
            }
        }
        group.post("changes/database") { request, context in
            try await respond(to: request, context: context, body: MarkSyncDatabaseChangesRequest.self) { body, _, caller in
                try await service.databaseChanges(body, caller: caller)
            }
        }
        group.post("records/query") { request, context in
            try await respond(to: request, context: context, body: MarkSyncRecordsQueryRequest.self) { body, _, caller in
                try await service.queryRecords(body, caller: caller)
            }
        }
        group.get("users/caller") { request, context in
            let caller: MarkSyncCaller
            do {
                caller = try await authenticate(request, context: context, databases: ["public", "private"])
            } catch let error as MarkSyncErrorBody where error.serverErrorCode == .authenticationFailed {
                throw MarkSyncErrorBody(.accessDenied, error.reason)
            }
            return try MarkSyncResponses.json(service.caller(caller))
        }
    }

    /// Authenticates, reads and decodes the body, and performs the operation with it; `write`
    /// turns the answer into the JSON body (`JSONEncoder` unless a route has a faster writer).
    /// Errors go to ``ServerErrorMiddleware``, which answers a `MarkSyncErrorBody` as itself.
    private func respond<Body: Decodable, Answer: Encodable>(
        to request: Request, context: some RequestContext, body: Body.Type,
        write: ((Answer) throws -> ByteBuffer)? = nil,
        perform: (Body, Int, MarkSyncCaller) async throws -> Answer
    ) async throws -> Response {
        let caller = try await authenticate(request, context: context)
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: service.configuration.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw MarkSyncErrorBody.limitExceeded("The request body is over \(service.configuration.maxBodyBytes) bytes")
        }
        let decoded = try MarkSyncRequestDecoder.decode(body, from: buffer)
        let answer = try await perform(decoded, buffer.readableBytes, caller)
        guard let write else { return try MarkSyncResponses.json(answer) }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: try write(answer)))
    }

    private func authenticate(_ request: Request, context: some RequestContext, databases: Set<String> = ["private"]) async throws -> MarkSyncCaller {
        let parameters = context.parameters
        guard parameters.get("version") == "1" else {
            throw MarkSyncErrorBody(.badRequest, "Unsupported protocol version '\(parameters.get("version") ?? "")'; only 1 is served")
        }
        let environment = parameters.get("environment") ?? ""
        guard environment == "development" || environment == "production" else {
            throw MarkSyncErrorBody(.badRequest, "Unknown environment '\(environment)'; use development or production")
        }
        let database = parameters.get("database") ?? ""
        guard databases.contains(database) else {
            throw MarkSyncErrorBody(.badRequest, "This operation is served on the \(databases.sorted().joined(separator: " and ")) database, not '\(database.prefix(40))'")
        }
        let query = request.uri.queryParameters
        return try await service.authenticate(
            container: parameters.get("container") ?? "", environment: environment,
            apiToken: query.get("ckAPIToken"), webAuthToken: try Self.userToken(request))
    }

    /// The user token of `request`: from `Authorization: Bearer <token>` (where proxies do not log
    /// it), else from the `ckWebAuthToken` query parameter (CloudKit's way); two different tokens
    /// are a BAD_REQUEST.
    static func userToken(_ request: Request) throws -> String? {
        let query = request.uri.queryParameters.get("ckWebAuthToken")
        guard let header = request.headers[.authorization] else { return query }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw MarkSyncErrorBody(.badRequest, "The Authorization header must be 'Bearer <token>'")
        }
        let bearer = parts[1].trimmingCharacters(in: .whitespaces)
        if let query, query != bearer {
            throw MarkSyncErrorBody(.badRequest, "The Authorization header and ckWebAuthToken name different tokens")
        }
        return bearer
    }
}
