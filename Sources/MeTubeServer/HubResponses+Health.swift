import HTTPTypes
import Hummingbird
import MeTubeCore

extension HubResponses {
    /// The header of `/health` naming the server's version (the body stays `ok`).
    static let versionHeader = HTTPField.Name("MeTube-Version")!

    /// The answer to `/health`: `ok`, with the version in ``versionHeader``.
    static func health() -> Response {
        var response = plainText("ok")
        response.headers[versionHeader] = MeTubeVersion.current
        return response
    }
}
