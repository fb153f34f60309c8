import Foundation

/// What one run syncs.
public enum SyncScope: Sendable, Equatable {
    /// Videos (when a source is configured), then marks.
    case all
    /// Marks only, with the mark-sync service.
    case markSync

    /// The scope covering both.
    func union(_ other: SyncScope) -> SyncScope {
        self == .all || other == .all ? .all : .markSync
    }
}

/// Where videos come from.
public enum SyncSource: String, Sendable, Equatable, Codable {
    /// A MeTube hub.
    case hub
    /// YouTube's channel feeds, fetched directly.
    case direct

    /// The name people see for it: `hub` or `youtube`.
    public var displayName: String {
        switch self {
        case .hub: "hub"
        case .direct: "youtube"
        }
    }
}
