import Foundation
import MeTubeCore

/// A web URL split by hand into host, path and query, as far as reading YouTube links needs:
/// no Foundation URL parsing, so Unicode, spaces and odd escapes in pasted links are read the same way everywhere.
struct YouTubeURL {
    /// The host, lower-cased, without port or trailing dot.
    let host: String
    /// The path after the host, still percent-encoded.
    private let path: Substring
    /// The query's items, names and values percent-decoded (an item that does not decode is dropped).
    private let queryItems: [(name: String, value: String)]

    /// Splits `text` when it is an `http(s)://` URL, or a scheme-less one starting with a YouTube host; `nil` otherwise.
    init?(_ text: String) {
        var rest = Substring(text)
        if let schemeEnd = rest.range(of: "://") {
            guard ["http", "https"].contains(rest[..<schemeEnd.lowerBound].lowercased()) else { return nil }
            rest = rest[schemeEnd.upperBound...]
        } else {
            let lowered = rest.prefix(40).lowercased()
            guard Self.hosts.contains(where: { lowered.hasPrefix($0 + "/") || lowered.hasPrefix("www." + $0 + "/") }) else { return nil }
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var host = rest[..<authorityEnd].lowercased()
        if let port = host.lastIndex(of: ":") { host = String(host[..<port]) }
        if host.hasSuffix(".") { host.removeLast() }
        self.host = host
        rest = rest[authorityEnd...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let queryStart = rest.firstIndex(of: "?")
        path = rest[..<(queryStart ?? rest.endIndex)]
        queryItems = queryStart.map { rest[rest.index(after: $0)...] }.map(Self.items) ?? []
    }

    /// The hosts links are read from, and their `www.`, `m.` and `music.` kin.
    private static let hosts = ["youtube.com", "youtu.be", "youtube-nocookie.com", "m.youtube.com", "music.youtube.com"]

    /// Whether the host is one of YouTube's.
    var isYouTube: Bool {
        host == "youtube.com" || host.hasSuffix(".youtube.com") || host == "youtu.be" || host == "www.youtu.be"
            || host == "youtube-nocookie.com" || host == "www.youtube-nocookie.com"
    }

    /// Whether this is a `youtu.be/ID` short link.
    var isShortLink: Bool { host == "youtu.be" || host == "www.youtu.be" }

    /// The non-empty path segments, percent-decoded; `nil` when one does not decode.
    var pathSegments: [String]? {
        var segments: [String] = []
        for segment in path.split(separator: "/") {
            guard let decoded = segment.removingPercentEncoding else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The value of the first query item named `name`.
    func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The items of a query string.
    private static func items(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&").compactMap { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].removingPercentEncoding,
                  let value = (parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            else { return nil }
            return (name, value)
        }
    }
}
