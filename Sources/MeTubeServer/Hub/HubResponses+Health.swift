import HTTPTypes
import Hummingbird
import MeTubeCore

extension HubResponses {
    /// The header of `/health` naming the server's version (the body stays `ok`).
    static let versionHeader = HTTPField.Name("MeTube-Version")!

    /// The header of `/health` saying the channel catalog's calls are failing (absent while they are not).
    static let catalogHeader = HTTPField.Name("MeTube-Catalog")!

    /// The answer to `/health`: `ok`, with the version in ``versionHeader`` and, while the
    /// channel catalog's calls fail, ``catalogHeader``; while the database is unavailable, 503
    /// `database unavailable: REASON` with `Retry-After`.
    static func health(databaseUnavailable reason: String? = nil, catalogFailure: CatalogFailure? = nil) -> Response {
        var response = reason.map { reason in
            var response = plainText("database unavailable: \(reason)\n", status: .serviceUnavailable)
            response.headers[.retryAfter] = String(StorageDeadline.retryAfter)
            return response
        } ?? plainText("ok")
        response.headers[versionHeader] = MeTubeVersion.current
        if let catalogFailure { response.headers[catalogHeader] = catalogFailure.headerValue }
        return response
    }
}
