import Foundation

/// How `metube-server` runs the status service: its limits and containers, and where it stores
/// its data.
public struct StatusServerSettings: Sendable {
    /// Limits, containers and throttling.
    public var configuration: StatusConfiguration
    /// The status SQLite file; by default `NAME-status.sqlite` next to the hub's database, and in
    /// memory when that is in memory too.
    public var databasePath: String?

    /// Creates the settings.
    public init(configuration: StatusConfiguration = .init(), databasePath: String? = nil) {
        self.configuration = configuration
        self.databasePath = databasePath
    }

    /// The status file that goes with the hub database at `hubDatabasePath`: same folder, name
    /// with `-status` before the extension. The status tables need a file of their own because
    /// a file's migration list belongs to one part of the program.
    public static func defaultDatabasePath(besideHubDatabase hubDatabasePath: String) -> String {
        let url = URL(fileURLWithPath: hubDatabasePath)
        let name = url.deletingPathExtension().lastPathComponent + "-status." + (url.pathExtension.isEmpty ? "sqlite" : url.pathExtension)
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The repository these settings name, given the hub's database path.
    public func makeRepository(hubDatabasePath: String?) throws -> any StatusRepository {
        guard let path = databasePath ?? hubDatabasePath.map(Self.defaultDatabasePath) else { return InMemoryStatusRepository() }
        return try SQLiteStatusRepository(path: path)
    }
}
