import HTTPTypes
import Hummingbird
import MeTubeCore

extension HubResponses {
    /// The header of `/health` naming the server's version (the body stays `ok`).
    static let versionHeader = HTTPField.Name("MeTube-Version")!

    /// The answer to `/health`: `ok`, with the version in ``versionHeader``; while the database is
    /// unavailable, 503 `database unavailable: REASON` with `Retry-After`.
    static func health(databaseUnavailable reason: String? = nil) -> Response {
        var response = reason.map { reason in
            var response = plainText("database unavailable: \(reason)\n", status: .serviceUnavailable)
            response.headers[.retryAfter] = String(StorageDeadline.retryAfter)
            return response
        } ?? plainText("ok")
        response.headers[versionHeader] = MeTubeVersion.current
        return response
    }
}
