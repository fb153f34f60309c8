import Foundation

/// Where a PostgreSQL database is and how to reach it, parsed from
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]` (`postgresql://` too).
///
/// Only the parts the server uses are accepted: a query parameter other than `sslmode`, a path
/// of more than one segment or a missing user, host or database is refused with a message that
/// names it, so a typo never silently connects elsewhere or without TLS.
public struct PostgresDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS (`sslmode`).
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Never TLS (`sslmode=disable`).
        case disable
        /// TLS when the server offers it, else plain (`sslmode=prefer`, the default as in libpq).
        case prefer
        /// TLS or no connection (`sslmode=require`); the certificate is verified against the
        /// system's trust store and the host name, as libpq's `verify-full` does.
        case require
    }

    /// The host name or address.
    public var host: String
    /// The TCP port; 5432 when the URL names none.
    public var port: Int
    /// The user to log in as.
    public var user: String
    /// The password, if the URL holds one.
    public var password: String?
    /// The database's name.
    public var database: String
    /// The TLS mode.
    public var tls: TLSMode

    /// Parses `text`; throws ``ServerError/invalidConfiguration(_:)`` saying what is wrong.
    public init(parsing text: String) throws(ServerError) {
        func invalid(_ reason: String) -> ServerError {
            .invalidConfiguration("the database URL \(Self.redacted(text)) \(reason)")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid("is not a URL; expected postgres://USER@HOST:PORT/DATABASE")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("must start with postgres:// (got \(scheme)://)")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("names no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("names no user (postgres://USER@HOST/DATABASE)") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw invalid("has port \(port), not 1…65535") }
        let segments = components.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard segments.count == 1, let name = segments.first, !name.isEmpty else {
            throw invalid("must name exactly one database as its path (postgres://USER@HOST/DATABASE)")
        }
        guard components.fragment == nil else { throw invalid("must not have a fragment (#…)") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else { throw invalid("has the unknown parameter \(item.name); only sslmode is understood") }
            guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                throw invalid("has sslmode=\(item.value ?? ""); use \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            tls = mode
        }
        self.host = host
        self.port = port
        self.user = components.percentEncodedUser?.removingPercentEncoding ?? user
        self.password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
        self.database = String(name).removingPercentEncoding ?? String(name)
        self.tls = tls
    }

    /// The URL without its password, for logs and messages.
    public var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (tls == .prefer ? "" : "?sslmode=\(tls.rawValue)")
    }

    /// `text` with anything between `:` and `@` of its authority replaced, for error messages.
    private static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://"), let at = text[schemeEnd.upperBound...].firstIndex(of: "@") else { return text }
        let authority = text[schemeEnd.upperBound..<at]
        guard let colon = authority.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":…" + String(text[at...])
    }
}
