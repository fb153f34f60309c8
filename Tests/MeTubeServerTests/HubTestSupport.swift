import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeCore
@testable import MeTubeServer

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

    /// Fresh repositories over both kinds of database: in memory and a file.
    static func repositories() throws -> [any HubRepository] {
        [try SQLiteHubRepository(), try SQLiteHubRepository(path: temporaryDatabasePath())]
    }
}
