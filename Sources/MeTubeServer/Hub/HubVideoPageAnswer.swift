import Hummingbird
import NIOCore

/// A `videos/query` answer: its JSON, gzipped when the client accepts gzip and the page was
/// worth it.
struct HubVideoPageAnswer {
    let bytes: ByteBuffer
    let isGzipped: Bool

    init(entry: HubPageCache.Entry, gzip: Bool) {
        if gzip, let gzipped = entry.gzipped {
            (bytes, isGzipped) = (gzipped, true)
        } else {
            (bytes, isGzipped) = (entry.answer, false)
        }
    }

    /// The answer as a response; ``HTTPCompressionMiddleware`` sends a gzipped one as it is.
    var response: Response {
        var response = HubResponses.json(bytes: bytes)
        if isGzipped { response.headers[.contentEncoding] = "gzip" }
        return response
    }
}
