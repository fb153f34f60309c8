import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
@testable import MeTubeServer
import ServerTestSupport
import TestSupport

/// Shared helpers for the hub tests.
enum HubTestSupport {
    /// An application with the hub routes over `repository`, for `app.test(.router)`.
    static func application(_ repository: any HubRepository) -> some ApplicationProtocol {
        Application(router: buildRouter(hubRepository: repository))
    }

    /// An application with the hub routes over a fresh in-memory database.
    static func application() throws -> some ApplicationProtocol {
        application(try SQLiteHubRepository())
    }

    /// A canonical channel id made from a number.
    static func channelID(_ number: Int) -> String { DemoCatalog.channelID(number) }

    /// A fresh path for an SQLite file in its own temporary folder.
    static func temporaryDatabasePath() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-hub-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("hub.sqlite").path
    }

    /// `text` as a request body.
    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// `value` encoded as a JSON request body.
    static func json(_ value: some Encodable) throws -> ByteBuffer { ByteBuffer(bytes: try JSONEncoder().encode(value)) }

    /// Decodes a response body.
    static func decode<Value: Decodable>(_ type: Value.Type, _ buffer: ByteBuffer) throws -> Value {
        try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    }

    /// A video of channel `channel` with number `number`, published `number` minutes after 2025-01-01.
    static func video(_ number: Int, channel: String, title: String? = nil) -> Video {
        Video(
            id: DemoCatalog.videoID(number), channelID: channel, title: title ?? "video \(number)",
            published: Date(timeIntervalSince1970: 1_735_689_600 + Double(number) * 60)
        )
    }

}

/// Where a hub test keeps its data: every backend the hub runs on.
enum HubStorage: String, CaseIterable, Sendable {
    case memory
    case sqlite
    case postgres

    /// A fresh, empty repository of this kind (an SQLite file in a new temporary directory, a new
    /// database in the test PostgreSQL cluster).
    func makeRepository() async throws -> any HubRepository {
        switch self {
        case .memory: try SQLiteHubRepository()
        case .sqlite: try SQLiteHubRepository(path: HubTestSupport.temporaryDatabasePath())
        case .postgres: PostgresHubRepository(database: try await .forTests())
        }
    }
}
