import Foundation
import NIOCore

/// The reverse proxies whose `Forwarded` and `X-Forwarded-For` headers name the client.
///
/// A request that comes from one of them counts against the address it forwards: walking the
/// forwarded chain from the nearest hop, the first address that is not itself a trusted proxy.
/// Every other peer's headers are ignored, so a client cannot pass for another by sending them.
/// A chain that holds anything but IP addresses (`unknown`, an obfuscated name, garbage), or more
/// than ``maxHops`` hops or ``maxHeaderBytes`` bytes, names no one: the request counts against
/// the proxy's own address.
struct TrustedProxies: Sendable {
    /// The most hops of a forwarded chain that are read.
    static let maxHops = 32
    /// The longest forwarded header that is read.
    static let maxHeaderBytes = 2_048

    private let addresses: Set<String>

    /// Trusts the proxies at `addresses` (IPv4 or IPv6, written in any form); others are dropped
    /// (``ServerConfiguration/validate()`` refuses them).
    init(_ addresses: [String]) {
        self.addresses = Set(addresses.compactMap(Self.canonical))
    }

    /// Whether no proxy is trusted.
    var isEmpty: Bool { addresses.isEmpty }

    /// The client's address: `peer` unless it is a trusted proxy whose `Forwarded` header (or,
    /// without one, `X-Forwarded-For`) names a client.
    func client(peer: String, forwarded: String?, forwardedFor: String?) -> String {
        guard addresses.contains(peer) else { return peer }
        let chain: [String]?
        if let forwarded {
            chain = Self.hops(forwarded).map { $0.compactMap(Self.forElement) }
        } else if let forwardedFor {
            chain = Self.hops(forwardedFor)
        } else {
            chain = nil
        }
        guard let chain, !chain.isEmpty else { return peer }
        var client = peer
        for hop in chain.reversed() {
            guard let address = Self.canonical(Self.unbracketed(hop)) else { return peer }
            client = address
            if !addresses.contains(address) { break }
        }
        return client
    }

    /// `header`'s comma-separated elements, trimmed; nil when it is too long or has too many.
    private static func hops(_ header: String) -> [String]? {
        guard header.utf8.count <= maxHeaderBytes else { return nil }
        let hops = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.count <= maxHops ? hops : nil
    }

    /// The `for=` value of one `Forwarded` element, unquoted (RFC 7239); an empty string (which
    /// names no one) when the element has none.
    private static func forElement(_ element: String) -> String {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return ""
    }

    /// `hop` without the brackets and port of `[2001:db8::1]:4711`, or the port of `192.0.2.1:80`.
    private static func unbracketed(_ hop: String) -> String {
        if hop.hasPrefix("["), let end = hop.firstIndex(of: "]") {
            return String(hop[hop.index(after: hop.startIndex)..<end])
        }
        if hop.filter({ $0 == ":" }).count == 1, let colon = hop.firstIndex(of: ":") {
            return String(hop[..<colon])
        }
        return hop
    }

    /// `address` as the server writes peers' addresses, or nil when it is not an IP address.
    static func canonical(_ address: String) -> String? {
        guard address.utf8.count <= 64, let socketAddress = try? SocketAddress(ipAddress: address, port: 0) else { return nil }
        return socketAddress.ipAddress
    }
}
