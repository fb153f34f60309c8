import Foundation

/// Reading an `Accept-Encoding` header (RFC 9110 §12.5.3): in a request, the codings the client
/// takes in the answer; in an answer, the codings the server takes in request bodies (RFC 7694).
public enum AcceptEncoding {
    /// What a server sends in its answers' `Accept-Encoding`: it inflates gzip request bodies.
    public static let serverAccepts = "gzip"

    /// Whether the header's values accept gzip: `gzip`, `x-gzip` or `*`, with no `q=0`.
    public static func acceptsGzip(_ values: some Sequence<some StringProtocol>) -> Bool {
        for value in values {
            for item in String(value).split(separator: ",") {
                let parts = item.split(separator: ";", maxSplits: 1)
                let coding = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                guard coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
                return parts.count < 2 || qualityIsPositive(parts[1])
            }
        }
        return false
    }

    private static func qualityIsPositive(_ parameter: Substring) -> Bool {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" else { return false }
        return (Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0) > 0
    }
}
