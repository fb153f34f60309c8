import Foundation
import MeTubeAPI

/// Which page of `zones/list` a request asks for: `?resultsLimit=N` zones (1 up to the records
/// per response, 200 unless configured otherwise) after the `?continuationMarker=` a previous
/// page answered. Both are metube's additions: a CloudKit client sends neither and gets the first
/// page, which holds every zone of a database within the default zone quota.
public struct MarkSyncZoneListPage: Sendable, Hashable {
    /// The most zones on the page; nil for the most allowed.
    public var limit: Int?
    /// The name of the last zone of the previous page; nil for the first page.
    public var after: String?

    /// The first page, of the most zones allowed.
    public init() {}

    /// The page the query parameters ask for; BAD_REQUEST for a limit that is not a whole number
    /// in 1…`maxLimit` or a marker this server did not give.
    public init(resultsLimit: String?, continuationMarker: String?, maxLimit: Int) throws(MarkSyncErrorBody) {
        if let resultsLimit {
            guard resultsLimit.utf8.count <= 9, let limit = Int(resultsLimit), (1...maxLimit).contains(limit) else {
                throw MarkSyncErrorBody(.badRequest, "resultsLimit must be a whole number from 1 to \(maxLimit), not '\(resultsLimit.prefix(20))'")
            }
            self.limit = limit
        }
        if let continuationMarker {
            guard let after = Self.zoneName(ofMarker: continuationMarker) else {
                throw MarkSyncErrorBody(.badRequest, "continuationMarker is not a zones/list marker of this server; list again without it")
            }
            self.after = after
        }
    }

    /// The marker of the page that follows the zone named `name`.
    static func marker(after name: String) -> String {
        "L" + Data(name.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    /// The zone name a marker holds, or nil when `marker` is not one.
    private static func zoneName(ofMarker marker: String) -> String? {
        guard marker.hasPrefix("L"), marker.utf8.count <= 2 + (MarkSyncService.maxNameBytes + 2) / 3 * 4 else { return nil }
        let base64 = marker.dropFirst().replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard let data = Data(base64Encoded: base64), let name = String(data: data, encoding: .utf8), !name.isEmpty,
              MarkSyncService.nameError(name, of: "zoneName") == nil else { return nil }
        return name
    }
}
